// The strict parsing of what an SSH client asks to run, and ssh_url_to_repo's forms.
import { expect } from 'chai';
import { parseSshCommand, projectPathOf } from '../../src/transport/ssh_command.js';
import { Urls } from '../../src/http/urls.js';
import { loadConfig } from '../../src/config.js';

describe('SSH command parsing', () => {
  it('accepts the three git commands on one single-quoted project path, with or without / and .git', () => {
    expect(parseSshCommand("git-upload-pack 'group/sub/project.git'")).to.deep.equal({ ok: true, command: 'git-upload-pack', path: 'group/sub/project' });
    expect(parseSshCommand("git-receive-pack '/group/project.git'")).to.deep.equal({ ok: true, command: 'git-receive-pack', path: 'group/project' });
    expect(parseSshCommand("git-upload-archive 'group/project'")).to.deep.equal({ ok: true, command: 'git-upload-archive', path: 'group/project' });
    expect(parseSshCommand("git-upload-pack 'a.b_c/.dot-files.git'")).to.deep.equal({ ok: true, command: 'git-upload-pack', path: 'a.b_c/.dot-files' });
  });

  it('accepts git-lfs-authenticate with a quoted or bare path and download or upload', () => {
    expect(parseSshCommand("git-lfs-authenticate 'group/project.git' download")).to.deep.equal({
      ok: true,
      command: 'git-lfs-authenticate',
      path: 'group/project',
      operation: 'download',
    });
    expect(parseSshCommand('git-lfs-authenticate /group/sub/project.git upload')).to.deep.equal({
      ok: true,
      command: 'git-lfs-authenticate',
      path: 'group/sub/project',
      operation: 'upload',
    });
    expect(parseSshCommand("git-lfs-authenticate '../etc' download")).to.deep.equal({ ok: false, message: 'Invalid repository path' });
  });

  it('refuses any other command, form, option or trailing text', () => {
    const disallowed = [
      '',
      'ls',
      'git-upload-pack',
      "git-upload-pack ''x",
      "git-upload-pack 'a/b.git'; touch pwned",
      "git-upload-pack 'a/b.git' ",
      " git-upload-pack 'a/b.git'",
      "git-upload-pack  'a/b.git'",
      'git-upload-pack a/b.git',
      'git-upload-pack "a/b.git"',
      "git upload-pack 'a/b.git'",
      "git-lfs-authenticate 'a/b.git' delete",
      "git-lfs-authenticate 'a/b.git'",
      "git-lfs-authenticate 'a/b.git' download extra",
      "git-lfs-authenticate  'a/b.git' download",
      "git-lfs-transfer 'a/b.git' download",
      "git-upload-pack 'a/b.git'\n",
      "git-upload-pack 'a/b'c.git'",
      `git-upload-pack '${'a/'.repeat(3000)}b'`,
      "scp -t 'a/b.git'",
      "git-upload-pack --strict 'a/b.git'",
    ];
    for (const text of disallowed) expect(parseSshCommand(text), JSON.stringify(text)).to.deep.equal({ ok: false, message: 'Disallowed command' });
  });

  it('refuses paths that are no project path', () => {
    const invalid = ['../../etc', 'a/../b', 'a//b', 'a/./b', 'project.git', '/etc', 'a/b/', '-a/b', 'a/-b', 'a/b c', 'a/b\\c', 'a/b.git.git', 'a/%2e%2e', '~/a/b', ''];
    for (const p of invalid) {
      expect(projectPathOf(p), p).to.equal(null);
      expect(parseSshCommand(`git-upload-pack '${p}'`), p).to.deep.equal({ ok: false, message: 'Invalid repository path' });
    }
  });
});

describe('ssh_url_to_repo', () => {
  it('is scp-like on port 22 (and with SSH off), an ssh:// URL with the port otherwise', () => {
    expect(new Urls('https://git.example.com', { port: 22 }).sshRepo('g/p')).to.equal('git@git.example.com:g/p.git');
    expect(new Urls('https://git.example.com', { port: 0 }).sshRepo('g/p')).to.equal('git@git.example.com:g/p.git');
    expect(new Urls('https://git.example.com', { host: 'ssh.example.com', port: 2222 }).sshRepo('g/p')).to.equal('ssh://git@ssh.example.com:2222/g/p.git');
  });

  it('reads WHARF_SSH_PORT (default 2222, 0 off) and WHARF_SSH_HOST (default the external URL’s host)', () => {
    const c = loadConfig({ WHARF_EXTERNAL_URL: 'https://code.example.org/' });
    expect(c).to.include({ sshPort: 2222, sshHost: 'code.example.org' });
    expect(loadConfig({ WHARF_SSH_PORT: '0', WHARF_SSH_HOST: 'ssh.example.org' })).to.include({ sshPort: 0, sshHost: 'ssh.example.org' });
    expect(() => loadConfig({ WHARF_SSH_PORT: 'ssh' })).to.throw('WHARF_SSH_PORT must be a non-negative integer');
    expect(() => loadConfig({ WHARF_SSH_PORT: '70000' })).to.throw('WHARF_SSH_PORT must be a port number');
  });
});

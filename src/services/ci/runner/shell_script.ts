// The bash script GitLab Runner's shell executor generates for a list of commands: each command
// is echoed (`$ command`) and run in order, and the first failing one stops the script
// (`set -eo pipefail`). The commands come from the job's configuration; the variables are in
// the environment, never in the script, so their values are not written anywhere.

/** `'…'` quoting for bash: the text is taken literally. */
export function shellQuote(text: string): string {
  return `'${text.split("'").join(`'\\''`)}'`;
}

export interface ScriptOptions {
  /** The checkout the script starts in. */
  dir: string;
  /** RLIMIT_NPROC for the job's processes (counted per user, as the kernel does). */
  maxProcesses: number;
}

export function shellScript(commands: string[], o: ScriptOptions): string {
  const lines = [
    'set -eo pipefail',
    `ulimit -u ${o.maxProcesses} 2>/dev/null || true`,
    `cd ${shellQuote(o.dir)}`,
  ];
  for (const command of commands) {
    lines.push(`printf '%s\\n' ${shellQuote(`$ ${command}`)}`);
    lines.push(command);
  }
  return `${lines.join('\n')}\n`;
}

// Serves a fixed set of files from one folder (the documentation viewer's files, from its npm
// package). The client only picks a name out of the list given here: a name not in it, or not
// a plain file name, is not served, so no request can reach another file of the disk.
// Responses carry Last-Modified and a weak ETag, and a conditional GET gets 304.
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface StaticFiles {
  /** Writes the file `name` to the response; false (nothing written) when it is not served. */
  send(ctx: Koa.Context, name: string): Promise<boolean>;
}

/** `files` maps each served name to its content type. */
export function staticFiles(dir: string, files: Readonly<Record<string, string>>): StaticFiles {
  return {
    async send(ctx, name) {
      if (!PLAIN_NAME.test(name) || !Object.hasOwn(files, name)) return false;
      const file = path.join(dir, name);
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(file);
      } catch {
        return false;
      }
      if (!stat.isFile()) return false;
      ctx.status = 200;
      ctx.lastModified = stat.mtime;
      ctx.etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      ctx.set('Cache-Control', 'public, max-age=3600');
      if (ctx.fresh) {
        ctx.status = 304;
        return true;
      }
      ctx.type = files[name];
      ctx.length = stat.size;
      ctx.body = fs.createReadStream(file); // koa destroys it when the response ends (HEAD included)
      return true;
    },
  };
}

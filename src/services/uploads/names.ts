// How an uploaded file is named and linked, as GitLab 10.8's FileUploader does it: the file name
// sanitized as CarrierWave does (only letters, digits, `.`, `-` and `_` kept, others become
// `_`), the URL `/uploads/<secret>/<filename>`, the alt text the name (without its extension
// for an image or a video), and the Markdown `[alt](url)`, `![alt](url)` for images and videos.
import crypto from 'node:crypto';

const IMAGE_OR_VIDEO = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'mp4', 'm4v', 'mov', 'webm', 'ogv']);

export function sanitizedFilename(original: string): string {
  const base = original.slice(Math.max(original.lastIndexOf('/'), original.lastIndexOf('\\')) + 1);
  let out = '';
  for (const ch of base) out += /^[A-Za-z0-9._-]$/.test(ch) ? ch : '_';
  out = out.slice(0, 255);
  return out === '' || out === '.' || out === '..' ? 'file' : out;
}

export function newUploadSecret(): string {
  return crypto.randomBytes(16).toString('hex');
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isImageOrVideo(name: string): boolean {
  return IMAGE_OR_VIDEO.has(extensionOf(name));
}

/** The answer of POST /projects/:id/uploads (FileUploader#to_h). */
export function uploadLinks(secret: string, filename: string): { alt: string; url: string; markdown: string } {
  const media = isImageOrVideo(filename);
  const dot = filename.lastIndexOf('.');
  const alt = (media && dot > 0 ? filename.slice(0, dot) : filename).replaceAll(']', '\\]');
  const url = `/uploads/${secret}/${filename}`;
  return { alt, url, markdown: `${media ? '!' : ''}[${alt}](${url})` };
}

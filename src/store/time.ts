/** Now, in the API's timestamp format (ISO 8601 UTC with milliseconds). */
export function now(): string {
  return new Date().toISOString();
}

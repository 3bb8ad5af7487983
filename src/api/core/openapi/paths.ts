// A route's @koa/router path (path-to-regexp 8 syntax) as OpenAPI path templates. OpenAPI has
// `{name}` parameters and nothing optional, so `:name` and `*name` (a wildcard: the value may
// hold slashes, as a commit id given as a ref name does) become `{name}`, and every optional
// group (`/archive{.:format}`) is written out both ways: one koa route may be two OpenAPI paths.
import { parse, type Token } from 'path-to-regexp';

export interface OpenApiPath {
  /** `/projects/{id}/labels`, relative to /api/v4. */
  template: string;
  /** The path's parameters in order; `wildcard` when the value may span segments. */
  params: { name: string; wildcard: boolean }[];
}

function expand(tokens: Token[]): OpenApiPath[] {
  let out: OpenApiPath[] = [{ template: '', params: [] }];
  for (const token of tokens) {
    if (token.type === 'group') {
      const inner = expand(token.tokens);
      out = out.flatMap((head) => [head, ...inner.map((tail) => ({ template: head.template + tail.template, params: [...head.params, ...tail.params] }))]);
      continue;
    }
    const piece =
      token.type === 'text' ? { template: token.value, params: [] } : { template: `{${token.name}}`, params: [{ name: token.name, wildcard: token.type === 'wildcard' }] };
    out = out.map((head) => ({ template: head.template + piece.template, params: [...head.params, ...piece.params] }));
  }
  return out;
}

/** Every OpenAPI path a koa route path answers, the shortest first. */
export function openApiPaths(koaPath: string): OpenApiPath[] {
  return expand(parse(koaPath).tokens);
}

import { AppError } from '@photorelay/contract/errors';
import type { FastifyRequest } from 'fastify';

// A NUL character or a lone surrogate cannot be stored by PostgreSQL (text, jsonb) nor written as
// UTF-8: refused here, once for every field, instead of failing deep inside with a 500.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
type MaybeWellFormed = string & { isWellFormed?: () => boolean };
// Node's isWellFormed answers at once for a 40 MB test image (the regular expression took 0.5 s).
const wellFormed = (text: MaybeWellFormed) => text.isWellFormed?.() ?? !loneSurrogate.test(text);
const unfit = { test: (text: string) => text.includes('\u0000') || !wellFormed(text) };

/** The path of the first string (value or key) in `value` that holds such a character. */
export function findUnfitText(value: unknown, root: string): string | undefined {
  // Iterative: a deeply nested JSON body must not overflow the stack.
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [item, at] = stack.pop() as [unknown, string];
    if (typeof item === 'string') {
      if (unfit.test(item)) return at;
    } else if (Array.isArray(item)) {
      item.forEach((entry, i) => {
        stack.push([entry, `${at}/${i}`]);
      });
    } else if (item !== null && typeof item === 'object') {
      for (const [key, entry] of Object.entries(item)) {
        if (unfit.test(key)) return at;
        stack.push([entry, `${at}/${key}`]);
      }
    }
  }
  return undefined;
}

const refuse = (at: string) => {
  throw new AppError('ValidationError', `${at}: must not contain NUL characters or unpaired surrogates`);
};

/** Before anything reads them (session, team scope): the URL's parameters, query and cookies. */
export async function refuseUnfitUrlText(request: FastifyRequest) {
  const at =
    findUnfitText(request.params, 'params') ??
    findUnfitText(request.query, 'querystring') ??
    findUnfitText(request.cookies, 'cookies');
  if (at) refuse(at);
}

/** Before validation, once the body is parsed. */
export async function refuseUnfitBodyText(request: FastifyRequest) {
  const at = findUnfitText(request.body, 'body');
  if (at) refuse(at);
}

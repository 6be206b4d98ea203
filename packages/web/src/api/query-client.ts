import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { NetworkError } from './client.ts';

/**
 * Per query or mutation: `meta.handlesError(error)` returns true when the caller shows the
 * error itself; otherwise the global error text is shown (spec §8 'Global').
 */
export type ErrorMeta = Record<string, unknown> & { handlesError?: (error: Error) => boolean };

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: Error;
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

/** Use as `meta` when the caller handles every error locally. */
export const handlesAllErrors: ErrorMeta = { handlesError: () => true };

/** Use as `meta` when the caller handles the listed error codes locally. */
export const handlesErrorCodes = (...codes: string[]): ErrorMeta => ({
  handlesError: (error) => 'code' in error && typeof error.code === 'string' && codes.includes(error.code),
});

export function createQueryClient(reportError: (error: Error) => void): QueryClient {
  const report = (error: Error, meta: ErrorMeta | undefined) => {
    if (meta?.handlesError?.(error)) return;
    reportError(error);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => report(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        // Answers with an error field are final; a lost connection is tried once more.
        retry: (failureCount, error) => error instanceof NetworkError && failureCount < 1,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}

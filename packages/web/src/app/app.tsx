import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router';
import { accountKeys, userInfoQueryOptions } from '../api/account.ts';
import { createQueryClient } from '../api/query-client.ts';
import { isDebugMode } from '../ui/debug-mode.ts';
import { createErrorReporter, isPresentedError } from '../ui/report-error.ts';
import {
  FatalErrorBoundary,
  FatalErrorDialog,
  installWindowErrorHandlers,
} from './errors/fatal-error-dialog.tsx';
import { showFatalError } from './errors/fatal-error-store.ts';
import { createAppRouter, preloadScreen } from './router.tsx';
import { theme } from './theme.ts';

/**
 * The app's query client and router. main.tsx makes them before React's first render, so the
 * session, the screen's code and its first data are on their way while React renders (issue 16).
 */
export function createAppState() {
  const queryClient = createQueryClient(
    // A lost session (e.g. expired cookie) reloads user info, so the route guard takes over.
    createErrorReporter(() => void queryClient.invalidateQueries({ queryKey: accountKeys.userInfo() })),
  );
  // Every page waits for the session's user info (the route guard): ask for it (index.html
  // preloads the answer) and for the screen's code and data now, not once the guard has rendered
  // (issue 16: the metadata tab's first load).
  void queryClient.prefetchQuery(userInfoQueryOptions());
  preloadScreen(window.location, queryClient);
  installWindowErrorHandlers(isPresentedError);
  if (isDebugMode()) Object.assign(window, { photorelayDebug: { showFatalError } });
  return { queryClient, router: createAppRouter() };
}

export type AppState = ReturnType<typeof createAppState>;

export function App({ state: { queryClient, router } }: { state: AppState }) {
  return (
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <SnackbarProvider
          maxSnack={3}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
          autoHideDuration={6000}
        >
          <FatalErrorBoundary>
            <QueryClientProvider client={queryClient}>
              <RouterProvider router={router} />
            </QueryClientProvider>
            <FatalErrorDialog />
          </FatalErrorBoundary>
        </SnackbarProvider>
      </ThemeProvider>
    </StrictMode>
  );
}

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server (packages/server) listens on 8080 in development; the built app is served by it.
const apiTarget = process.env.API_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps: the server would publish the app's sources with them (issue 10, item 11).
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks so an app update does not re-download the libraries.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie)[\\/]/ },
            // MUI's core and the components most pages use. The date pickers (with date-fns), the
            // autocomplete and the table pagination (which makes an Intl.NumberFormat as its module
            // runs) go with the few pages that use them: the others load and run less (issue 16).
            {
              name: 'mui',
              test: /node_modules[\\/](@mui[\\/](?!x-|material[\\/](TablePagination|Autocomplete|useAutocomplete))|@emotion|@popperjs|stylis|react-transition-group)/,
            },
            { name: 'data', test: /node_modules[\\/](@tanstack|i18next|react-i18next|notistack|zod)[\\/]/ },
          ],
        },
      },
    },
  },
});

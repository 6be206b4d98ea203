import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { earlyCodeElementId, earlyRoutes } from './src/boot/early-routes.ts';

// The API server (packages/server) listens on 8080 in development; the built app is served by it.
const webDir = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:8080';

/**
 * The early script (src/boot/early.ts) in index.html, and per early route the code files its
 * screen needs beyond the entry's (the entry's own are preloaded by index.html already): the early
 * script asks for them while the libraries load (issue 28 item 8). The names go into index.html,
 * not into the script, as the page is asked for again on every visit and the script is cached.
 */
function earlyScript(): Plugin {
  return {
    name: 'photorelay-early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return html;
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const early = chunks.find((c) => c.isEntry && c.name === 'early');
        if (!early) throw new Error('the early script was not built');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        // A file and the files it imports, each once.
        const withImports = (fileName: string, into: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) withImports(imported, into);
        };
        const loadedByEntry = new Set<string>();
        withImports(entry.fileName, loadedByEntry);
        const code: Record<string, string[]> = {};
        for (const [route, { modules }] of Object.entries(earlyRoutes)) {
          const files = new Set<string>();
          for (const module of modules) {
            const id = path.resolve(webDir, module);
            const chunk = chunks.find((c) => c.moduleIds.includes(id));
            if (!chunk) throw new Error(`early route ${route}: ${module} is in no chunk`);
            withImports(chunk.fileName, files);
          }
          code[route] = [...files].filter((f) => !loadedByEntry.has(f)).map((f) => `/${f}`);
        }
        // JSON inside <script>: no '<' may end the element early.
        const json = JSON.stringify(code).replaceAll('<', '\\u003c');
        return {
          html,
          tags: [
            {
              tag: 'script',
              attrs: { type: 'application/json', id: earlyCodeElementId },
              children: json,
              injectTo: 'head',
            },
            // Before the app's script, and not async: module scripts run in document order, so the
            // early script has run (and holds its answers) before the app asks for anything.
            {
              tag: 'script',
              attrs: { type: 'module', crossorigin: true, src: `/${early.fileName}` },
              injectTo: 'head-prepend',
            },
          ],
        };
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), earlyScript()],
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
      // The app and the early script (see earlyScript above).
      input: { index: path.resolve(webDir, 'index.html'), early: path.resolve(webDir, 'src/boot/early.ts') },
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

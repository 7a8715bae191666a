import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { checkRuleSets } from './src/engine/index.ts';

/**
 * Writes a Brotli and a gzip copy beside each built text file; the server sends the copy a
 * browser accepts (a third of the bytes), without compressing on every request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(content, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * A chunk group's test for these source files. Each must exist: a group naming a file since
 * moved would quietly match nothing.
 */
function sourceFiles(...files: string[]): (id: string) => boolean {
  const paths = files.map((file) => path.resolve(import.meta.dirname, file));
  for (const file of paths) {
    if (!fs.existsSync(file)) throw new Error(`vite.config.ts names ${file}, which does not exist`);
  }
  return (id) => paths.includes(id);
}

/** A malformed rule set file stops the build, as it stops the server's start and the tests. */
function checkedRuleSets(): Plugin {
  return { name: 'checked-rule-sets', apply: 'build', buildStart: () => checkRuleSets() };
}

export default defineConfig({
  root: 'src/web',
  plugins: [
    checkedRuleSets(),
    react(),
    // The installable app: a manifest and a service worker that precaches the app's shell and
    // code, so that the wizard opens and scores with no network. API answers are never cached
    // (patient data does not belong in a cache): /api/* goes to the network only.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['apple-touch-icon.png'],
      manifest: {
        name: 'Chronic Disease Risk Assessment System',
        short_name: 'Risk Assessment',
        description: 'Chronic disease risk assessment for authorized healthcare professionals',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#228be6',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,woff2}'],
        navigateFallback: '/index.html',
        // The server's own addresses (the API, FHIR, CDS Hooks) are never answered with the app.
        navigateFallbackDenylist: [/^\/(api|fhir|cds-services)(\/|$)/],
        cleanupOutdatedCaches: true,
        // The first worker controls the page that installed it, so that this very visit works
        // offline; a later version waits for the user's Reload (registerType 'prompt').
        clientsClaim: true,
        runtimeCaching: [],
      },
    }),
    precompress(),
  ],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // The initial script is one file on purpose (codeSplitting below); it is about 620 kB.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // What the entry needs before the first view comes in one file, not in dozens of small
        // shared chunks (each a request, and each compressed on its own). So do the wizard's
        // views with all they import: a phone on a slow link fetches a page's chunks a few at a
        // time, and the wizard's first view waited for about twenty. The notifications, which
        // every page loads as it starts, keep a chunk of their own with what they import, so that
        // no page loads the wizard's chunk early for a part the two share.
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            {
              name: 'notifications',
              test: sourceFiles('src/web/components/NotificationsContainer.tsx'),
            },
            {
              name: 'wizard',
              test: sourceFiles(
                'src/web/pages/assessment/NewAssessmentPage.tsx',
                'src/web/pages/assessment/SavedAssessmentPage.tsx',
              ),
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});

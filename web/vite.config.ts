import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/web, which the daemon serves at `/` (src/daemon/ui-routes.ts).
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // The daemon's CSP allows only 'self': keep every asset a file, never a data: URL script.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});

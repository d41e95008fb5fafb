import { defineConfig } from 'vite';

// In development, `npm run dev` (Vite) and `npm run api` (Express, server.js) run side by side:
// Vite forwards the billing proxy's routes to Express, as Vite's docs show for any API.
export default defineConfig({
  server: {
    proxy: {
      '/billing': `http://localhost:${process.env.API_PORT ?? 3000}`,
    },
  },
});

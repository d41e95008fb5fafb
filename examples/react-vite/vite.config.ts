import react from '@vitejs/plugin-react';
import { billingProxyVitePlugin } from 'billing-elements/server';
import { defineConfig } from 'vite';

// The billing proxy mounted on Vite's own dev and preview servers. The options are read when
// one of them starts: `vite build` needs none of these variables.
export default defineConfig({
  plugins: [
    react(),
    billingProxyVitePlugin(() => ({
      baseUrl: process.env.BILLING_API_URL!,
      agentKey: process.env.BILLING_AGENT_KEY!,
      apiKey: process.env.BILLING_API_KEY!,
      businessId: Number(process.env.BILLING_BUSINESS_ID),
      segment: process.env.BILLING_SEGMENT!,
      portalScriptUrl: process.env.BILLING_PORTAL_SCRIPT_URL!,
      portalSecret: process.env.BILLING_PORTAL_SECRET!,
      // Your app's session goes here; this example signs everyone in as "healthy".
      identify: () => ({ reference: 'healthy' }),
    })),
  ],
});

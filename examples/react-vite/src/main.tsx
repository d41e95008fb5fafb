import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Registers the tags before the first render, so that React sets their properties.
import 'billing-elements/define';
import { App } from './App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

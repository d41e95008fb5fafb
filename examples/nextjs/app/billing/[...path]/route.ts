import { toNextHandlers } from 'billing-elements/server';
import { billing } from '@/lib/billing';

export const { GET, POST, OPTIONS } = toNextHandlers(billing);

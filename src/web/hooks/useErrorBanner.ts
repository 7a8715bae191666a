import { use } from 'react';
import {
  ErrorBannerContext,
  type ErrorBannerValue,
} from '../components/errors/ErrorBannerContext.ts';

export function useErrorBanner(): ErrorBannerValue {
  const banner = use(ErrorBannerContext);
  if (banner === null) throw new Error('useErrorBanner needs an ErrorBannerProvider above it');
  return banner;
}

import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

import { Button } from '@/components/ui/button';

function ErrorFallback() {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">{t('errors.title')}</h1>
      <p className="mt-3 text-slate-600">{t('errors.description')}</p>
      <Button className="mt-6" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </Button>
    </div>
  );
}

/** The router's error element: a route that throws shows this inside the layout. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return <ErrorFallback />;
}

/** The top-level fallback, for anything outside the router's reach. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    return this.state.failed ? <ErrorFallback /> : this.props.children;
  }
}

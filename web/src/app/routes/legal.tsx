import { DocumentPage } from '@/features/site/components/document-page';

export function TermsRoute() {
  return <DocumentPage collection="legal" slug="terms" />;
}

export function PrivacyRoute() {
  return <DocumentPage collection="legal" slug="privacy" />;
}

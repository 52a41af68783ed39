import { DocumentPage } from '@/components/document-page';

export function TermsRoute() {
  return <DocumentPage collection="legal" slug="terms" />;
}

export function PrivacyRoute() {
  return <DocumentPage collection="legal" slug="privacy" />;
}

import {
  type CatalogueKey,
  type CertificateLanguage,
  documentLabelKey,
  type FunnelMessage,
  type MessageValues,
  messageText,
  providerLabelKey,
} from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import type { CertificateDocument, Provider } from '@ferry/contracts';

export interface FunnelText {
  language: CertificateLanguage;
  setLanguage(language: CertificateLanguage): void;
  t(key: CatalogueKey, values?: MessageValues): string;
  document(document: CertificateDocument): string;
  provider(provider: Provider): string;
  message(message: FunnelMessage): string;
}

/**
 * The screens' words, all from the shared catalogue of @ferry/certificate-flow through react-i18next
 * (the instance CertificateFunnelI18n provides), so native and web say the same thing.
 */
export function useFunnelText(): FunnelText {
  const { t, language, setLanguage } = useCertificateTranslation();
  return {
    language,
    setLanguage,
    t,
    document: (document) => t(documentLabelKey(document)),
    provider: (provider) => t(providerLabelKey(provider.code)),
    message: (message) => messageText(t, message),
  };
}

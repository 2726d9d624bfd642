import { type CertificateLanguage, createCertificateI18n, DEFAULT_LANGUAGE } from '@ferry/certificate-flow';
import { type ReactNode, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';

export interface CertificateFunnelI18nProps {
  /** Korean ('ko') unless the app says otherwise; English ('en') is the alternative. */
  language?: CertificateLanguage;
  children: ReactNode;
}

/**
 * Gives the funnel screens their own i18next instance holding the shared catalogue (never i18next's
 * global instance, so an app's own i18n setup is untouched). CertificateFunnel wraps itself in it;
 * apps that render the step screens in their own navigation wrap those screens once.
 */
export function CertificateFunnelI18n({ language = DEFAULT_LANGUAGE, children }: CertificateFunnelI18nProps) {
  const [instance] = useState(() => createCertificateI18n(language));
  useEffect(() => {
    if (instance.language !== language) void instance.changeLanguage(language);
  }, [instance, language]);
  return <I18nextProvider i18n={instance}>{children}</I18nextProvider>;
}

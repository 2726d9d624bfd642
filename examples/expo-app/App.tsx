import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';
import { CertificateFunnel, type FunnelEntryPoint } from '@ferry/expo/certificates';
import Constants from 'expo-constants';
import { StatusBar } from 'expo-status-bar';
import * as Updates from 'expo-updates';
import { useEffect, useState } from 'react';
import { Image, Linking, Pressable, StyleSheet, Text, View } from 'react-native';
import { certificateEntryOf } from './certificate-route';
import { certificateServer } from './certificate-server';

export default function App() {
  // Notify (2) shows the banner once an update has downloaded; Default (3) applies it at the next launch.
  const update = useOtaUpdatePolicy();
  // The certificate funnel: from the menu below, or from an assignment link
  // (ferry-example://certificate?assignmentId=…), whether it launched the app or arrived later.
  const [certificate, setCertificate] = useState<FunnelEntryPoint | null>(null);
  useEffect(() => {
    void Linking.getInitialURL().then((url) => setCertificate((current) => certificateEntryOf(url) ?? current));
    const subscription = Linking.addEventListener('url', ({ url }) => {
      const entry = certificateEntryOf(url);
      if (entry) setCertificate(entry);
    });
    return () => subscription.remove();
  }, []);

  if (certificate) {
    return (
      <View style={styles.funnel}>
        <Pressable
          accessibilityRole="button"
          accessibilityLabel="닫기"
          onPress={() => setCertificate(null)}
          style={styles.close}
        >
          <Text style={styles.closeText}>✕</Text>
        </Pressable>
        {/* One component, two props: where the server is, and where the person came from. */}
        <CertificateFunnel
          key={certificate.kind === 'menu' ? 'menu' : certificate.assignmentId}
          server={certificateServer}
          entry={certificate}
        />
        <OtaUpdateBanner update={update} />
      </View>
    );
  }

  const extra = Constants.expoConfig?.extra as { appEnv?: string; channel?: string } | undefined;
  return (
    <View style={styles.container}>
      <Image source={require('./assets/logo.png')} style={styles.logo} />
      <Text style={styles.title}>Ferry example</Text>
      <Text>APP_ENV: {extra?.appEnv ?? 'unknown'}</Text>
      <Text>channel: {Updates.channel ?? extra?.channel ?? 'none'}</Text>
      <Text>runtimeVersion: {Updates.runtimeVersion ?? 'n/a'}</Text>
      <Text>update: {Updates.isEmbeddedLaunch ? 'embedded' : (Updates.updateId ?? 'n/a')}</Text>
      <Pressable accessibilityRole="button" onPress={() => setCertificate({ kind: 'menu' })} style={styles.menu}>
        <Text style={styles.menuText}>전자증명서 발급</Text>
      </Pressable>
      <OtaUpdateBanner update={update} />
      <StatusBar style="auto" />
    </View>
  );
}

const styles = StyleSheet.create({
  container: { flex: 1, alignItems: 'center', justifyContent: 'center', gap: 8 },
  logo: { width: 96, height: 96 },
  title: { fontSize: 20, fontWeight: '600' },
  menu: {
    marginTop: 16,
    minHeight: 48,
    paddingHorizontal: 24,
    justifyContent: 'center',
    borderRadius: 8,
    backgroundColor: '#1A56DB',
  },
  menuText: { color: '#FFFFFF', fontSize: 17, fontWeight: '600' },
  funnel: { flex: 1, paddingTop: Constants.statusBarHeight, backgroundColor: '#FFFFFF' },
  close: { alignSelf: 'flex-start', minWidth: 48, minHeight: 48, alignItems: 'center', justifyContent: 'center' },
  closeText: { fontSize: 20 },
});

import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';
import Constants from 'expo-constants';
import { StatusBar } from 'expo-status-bar';
import * as Updates from 'expo-updates';
import { Image, StyleSheet, Text, View } from 'react-native';

export default function App() {
  // Notify (2) shows the banner once an update has downloaded; Default (3) applies it at the next launch.
  const update = useOtaUpdatePolicy();
  const extra = Constants.expoConfig?.extra as { appEnv?: string; channel?: string } | undefined;
  return (
    <View style={styles.container}>
      <Image source={require('./assets/logo.png')} style={styles.logo} />
      <Text style={styles.title}>Ferry example</Text>
      <Text>APP_ENV: {extra?.appEnv ?? 'unknown'}</Text>
      <Text>channel: {Updates.channel ?? extra?.channel ?? 'none'}</Text>
      <Text>runtimeVersion: {Updates.runtimeVersion ?? 'n/a'}</Text>
      <Text>update: {Updates.isEmbeddedLaunch ? 'embedded' : (Updates.updateId ?? 'n/a')}</Text>
      <OtaUpdateBanner update={update} />
      <StatusBar style="auto" />
    </View>
  );
}

const styles = StyleSheet.create({
  container: { flex: 1, alignItems: 'center', justifyContent: 'center', gap: 8 },
  logo: { width: 96, height: 96 },
  title: { fontSize: 20, fontWeight: '600' },
});

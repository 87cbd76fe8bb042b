import { useMemo } from 'react';
import { createProvider, type BotCheckConfig, type BotCheckProvider } from '../api/botcheck';

/** A lazy getter: the provider (and its script) loads only when the server demands a token. */
export function useBotCheck(config: BotCheckConfig): () => Promise<BotCheckProvider> {
  return useMemo(() => {
    let provider: Promise<BotCheckProvider> | undefined;
    return () => (provider ??= createProvider(config));
  }, [config]);
}

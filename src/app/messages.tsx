import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { Alert } from '../ui';
import { SlotsContext } from './slots';

/** SPEC §9: shared messages hide after 5 seconds; permanent ones stay until removed. */
export const MESSAGE_AUTO_HIDE_MS = 5000;

export type MessageKind = 'success' | 'info' | 'warning' | 'error';

export interface MessageInput {
  key: string;
  values?: Record<string, unknown>;
  kind?: MessageKind;
  permanent?: boolean;
}

interface Message extends Required<Omit<MessageInput, 'values'>> {
  id: number;
  values: Record<string, unknown>;
}

interface MessagesApi {
  show(message: MessageInput): number;
  dismiss(id: number): void;
  clear(): void;
}

const MessagesContext = createContext<MessagesApi | null>(null);
interface MessageList {
  messages: Message[];
  dismiss(id: number): void;
  /** The pointer or focus is on the bar (true) or has left it (false): see MessageProvider. */
  hold(by: 'pointer' | 'focus', on: boolean): void;
}
/** The messages on show, read by the bar alone (screens that only show messages do not re-render). */
const MessageListContext = createContext<MessageList>({ messages: [], dismiss: () => undefined, hold: () => undefined });

export function useMessages(): MessagesApi {
  const api = useContext(MessagesContext);
  if (!api) throw new Error('useMessages must be used inside <MessageProvider>');
  return api;
}

export function MessageProvider({ children }: { children: ReactNode }) {
  // A page the server answers a plain form's post with may show a message from the start (./slots.ts).
  const { message } = useContext(SlotsContext);
  const [messages, setMessages] = useState<Message[]>(() => (message ? [{ id: 0, key: message.key, values: {}, kind: message.kind, permanent: true }] : []));
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  // A message does not hide while the visitor reads it (pointer or focus on the bar, WCAG 2.2.1 and
  // 1.4.13): one whose time ran out meanwhile gets the full time again once they leave.
  const held = useRef({ pointer: false, focus: false });
  const due = useRef(new Set<number>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    due.current.delete(id);
    setMessages((list) => list.filter((m) => m.id !== id));
  }, []);

  const hideLater = useCallback(
    (id: number) =>
      timers.current.set(
        id,
        setTimeout(() => (held.current.pointer || held.current.focus ? due.current.add(id) : dismiss(id)), MESSAGE_AUTO_HIDE_MS),
      ),
    [dismiss],
  );

  const hold = useCallback(
    (by: 'pointer' | 'focus', on: boolean) => {
      held.current = { ...held.current, [by]: on };
      if (held.current.pointer || held.current.focus) return;
      for (const id of due.current) hideLater(id);
      due.current.clear();
    },
    [hideLater],
  );

  const show = useCallback(
    (input: MessageInput) => {
      const id = nextId.current++;
      const message: Message = { id, key: input.key, values: input.values ?? {}, kind: input.kind ?? 'info', permanent: input.permanent ?? false };
      // The same text twice is noise: replace the older copy.
      setMessages((list) => [...list.filter((m) => m.key !== message.key), message]);
      if (!message.permanent) hideLater(id);
      return id;
    },
    [hideLater],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    due.current.clear();
    setMessages([]);
  }, []);

  useEffect(() => () => clear(), [clear]);
  const api = useMemo(() => ({ show, dismiss, clear }), [show, dismiss, clear]);
  const list = useMemo(() => ({ messages, dismiss, hold }), [messages, dismiss, hold]);
  return (
    <MessagesContext.Provider value={api}>
      <MessageListContext.Provider value={list}>{children}</MessageListContext.Provider>
    </MessagesContext.Provider>
  );
}

/**
 * The messages, where the page frame puts them (in the page flow, above the card): alerts with an
 * icon and a close button, errors and warnings in an assertive live region, the rest in a polite one.
 */
export function MessageBar() {
  const { t } = useTranslation();
  const { messages, dismiss, hold } = useContext(MessageListContext);
  const urgent = messages.filter((m) => m.kind === 'error' || m.kind === 'warning');
  const polite = messages.filter((m) => m.kind === 'success' || m.kind === 'info');
  const render = (m: Message) => (
    <Alert key={m.id} kind={m.kind} className="fd-message" onDismiss={() => dismiss(m.id)} dismissLabel={t('common.dismissMessage')}>
      {t(m.key, m.values)}
    </Alert>
  );
  // Live regions exist from the start so screen readers announce what is added to them. Pointer or
  // focus on the bar holds its messages (focus moving inside it is no leaving).
  return (
    <div
      className="fd-messages"
      onPointerEnter={() => hold('pointer', true)}
      onPointerLeave={() => hold('pointer', false)}
      onFocus={() => hold('focus', true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) hold('focus', false);
      }}
    >
      <div role="alert" aria-live="assertive" className="fd-messages__urgent">
        {urgent.map(render)}
      </div>
      <div role="status" aria-live="polite" className="fd-messages__polite">
        {polite.map(render)}
      </div>
    </div>
  );
}

import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation, type TFunction } from '../lib/i18n';
import { EngineHostProvider, focusStepStart, useOptionalEngineHost, type EngineHost, type HostMessage, ScreenRuntime, type ScreenEntry } from '../engine';
import { mfaMethod } from '../generated/lists';
import verifyMfaScreen from '../generated/screens/verifyMfa';
import { returnToIn } from '../../catalogue/language/return-to';
import { standaloneHost } from './standalone-host';
import type vocabulary from './vocabulary.json';
import { Alert, Button, CardBrand, CardHeading, IconClose } from '../ui';
import '../ui/modal.css';

/**
 * The Verify MFA modal (SPEC §2, §4 'MFA method switching in the modal', §7, §8), usable outside the
 * login page: a native modal <dialog> (focus stays inside, Escape and the close button call onCancel)
 * around the engine rendering the catalogue screen screens/verifyMfa.json — the switching, the restore
 * on failure, the codes, Duo's prompt and the security key are that screen's, as on /mfa. This file
 * is the modal's frame and its engine host: the screen's actions mfaVerified and mfaSessionExpired
 * close it ('Token expired' for an ended session), and `verify` replaces the verifyMfaSession call.
 */
export type MfaMethod = (typeof mfaMethod)[number];
export const MFA_METHODS: readonly MfaMethod[] = mfaMethod;

/** What the verification callback receives (SPEC §7): the current method and its code or credential. */
export interface MfaVerification {
  mfaType: MfaMethod;
  mfaCode?: string;
  publicKeyCredentialEncoded?: string;
}

export interface VerifyMfaModalProps {
  /** The user's methods (e.g. the session's mfaMethods); unknown names are ignored. */
  methods: readonly string[];
  /** The method shown first (default: the first of `methods`). */
  initialMethod?: string;
  /** Passed to the server when switching; default: the page's return_to query parameter. */
  returnTo?: string;
  /** Submits a verification; resolves to its result code. Default: POST verifyMfaSession. */
  verify?: (input: MfaVerification) => Promise<string>;
  onVerified: (input: MfaVerification) => void;
  onCancel: () => void;
  /** Shown after the modal closed itself (e.g. 'Token expired'); default: nothing. */
  onExpired?: (message: string) => void;
}

const isMethod = (value: unknown): value is MfaMethod => typeof value === 'string' && (MFA_METHODS as readonly string[]).includes(value);

export function returnToFromLocation(search = typeof window === 'undefined' ? '' : window.location.search): string | undefined {
  // The server takes at most 2048 characters (schemas/api/switchMfaSession.json).
  return returnToIn(Object.fromEntries(new URLSearchParams(search)))?.slice(0, 2048) || undefined;
}

type Callbacks = Pick<VerifyMfaModalProps, 'verify' | 'onVerified' | 'onCancel' | 'onExpired'>;

/**
 * The modal's engine host, on the page's host when there is one (else the standalone one): messages show
 * in the dialog (the page's message bar is behind it), the page's title stays, the screen's two actions
 * close it, and `verify` (when given) answers the verifyMfaSession call. The props of the moment are read
 * through a ref: the host itself is made once per modal.
 */
function modalHost(
  base: EngineHost,
  showMessage: (message: HostMessage) => void,
  close: (then: () => void) => void,
  props: RefObject<Callbacks>,
  lastVerification: RefObject<MfaVerification | undefined>,
  t: TFunction,
): EngineHost {
  return {
    ...base,
    showMessage,
    useTitle: () => undefined,
    actions: {
      mfaVerified: () => close(() => props.current.onVerified(lastVerification.current ?? { mfaType: 'TOTP' })),
      mfaSessionExpired: () =>
        close(() => {
          props.current.onExpired?.(t('mfa.errors.tokenExpired'));
          props.current.onCancel();
        }),
    } satisfies Record<keyof (typeof vocabulary)['actions'], () => void>,
    call: async (operation, body, options) => {
      if (operation !== 'verifyMfaSession') return base.call(operation, body, options);
      const input = body as unknown as MfaVerification;
      lastVerification.current = input;
      const custom = props.current.verify;
      if (!custom) return base.call(operation, body, options);
      return { code: await custom(input).catch(() => 'NETWORK_ERROR'), status: 200, data: {} };
    },
  };
}

/** A message of the screen, in the dialog: an error or warning announced at once, the rest politely. */
function DialogMessage({ message }: { message: HostMessage | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <Alert
      kind={message.kind}
      role={message.kind === 'error' || message.kind === 'warning' ? 'alert' : 'status'}
      className={message.kind === 'error' ? 'fd-form-error' : undefined}
    >
      {t(message.key, message.values)}
    </Alert>
  );
}

export function VerifyMfaModal({ methods, initialMethod, returnTo, verify, onVerified, onCancel, onExpired }: VerifyMfaModalProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [message, setMessage] = useState<HostMessage>();
  const closed = useRef(false);
  const lastVerification = useRef<MfaVerification>(undefined);
  const props = useRef<Callbacks>({ verify, onVerified, onCancel, onExpired });
  props.current = { verify, onVerified, onCancel, onExpired };

  const close = useCallback((then: () => void) => {
    if (closed.current) return;
    closed.current = true;
    dialog.current?.close();
    then();
  }, []);
  const cancel = () => close(() => props.current.onCancel());
  const outer = useOptionalEngineHost();
  const host = useMemo(() => modalHost(outer ?? standaloneHost(), setMessage, close, props, lastVerification, t), [outer, t, close]);

  const available = methods.filter(isMethod);
  const first = isMethod(initialMethod) && available.includes(initialMethod) ? initialMethod : available[0];
  const target = returnTo ?? returnToFromLocation();
  // The screen's context: the user's methods, the one to ask for first, where to return.
  const [entry] = useState<ScreenEntry>(() => ({
    pathname: '',
    search: '',
    params: {},
    route: { context: { available_mfa: available, initialMethod: first, ...(target ? { returnTo: target } : {}) } },
  }));

  // Opened before any effect of the screen inside runs, then the focus on its field marked to take it,
  // else its heading (WCAG 2.4.3): the browser's own choice would be the dialog's first button, Close,
  // outside the screen, where the screen's focus handling (src/engine/focus-after-change.ts) leaves it.
  useLayoutEffect(() => {
    const el = dialog.current;
    if (el && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
      const heading = document.getElementById(titleId);
      focusStepStart(el, heading && el.contains(heading) ? heading : null);
    }
  }, [titleId]);

  return (
    <dialog
      ref={dialog}
      className="fd-modal"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
    >
      <div className="fd-modal__body">
        <div className="fd-modal__header">
          <button type="button" className="fd-icon-button fd-modal__close" aria-label={t('mfa.modal.close')} onClick={cancel}>
            <IconClose />
          </button>
        </div>
        <DialogMessage message={message} />
        {/* The screen's card is the dialog's content: no brand, its heading an h2 that names the dialog. */}
        <CardBrand.Provider value={null}>
          <CardHeading.Provider value={{ level: 2, id: titleId }}>
            <EngineHostProvider value={host}>
              <ScreenRuntime module={verifyMfaScreen} entry={entry} />
            </EngineHostProvider>
          </CardHeading.Provider>
        </CardBrand.Provider>
        <div className="fd-modal__actions">
          <Button variant="secondary" onClick={cancel}>
            {t('mfa.modal.cancel')}
          </Button>
        </div>
      </div>
    </dialog>
  );
}

export default VerifyMfaModal;

import { useEffect, useState } from 'react';
import { IconCheck, IconCopy } from './icons';

export interface CopyButtonProps {
  text: string;
  label: string;
  copiedLabel: string;
  /** Selected instead when the clipboard is not available, so the visitor can copy it by hand. */
  fallbackTarget?: string;
}

/** Copies a value (e.g. an authenticator key); says 'Copied' for a moment, also to screen readers. */
export function CopyButton({ text, label, copiedLabel, fallbackTarget }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      const target = fallbackTarget ? document.getElementById(fallbackTarget) : null;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
        target.focus();
        target.select();
      }
    }
  };
  return (
    <>
      <button type="button" className="fd-button fd-button--secondary fd-copy" onClick={() => void copy()}>
        {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
        {copied ? copiedLabel : label}
      </button>
      <span role="status" className="fd-visually-hidden">
        {copied ? copiedLabel : ''}
      </span>
    </>
  );
}

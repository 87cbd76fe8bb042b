/**
 * The format functions of frontdoor/validators, with no ajv import, so a
 * browser bundle that runs precompiled (standalone) validators pulls in only
 * these functions. Standalone code refers to them as
 * `require("frontdoor/validators/formats").formats["<name>"]`.
 */
import { email } from "./formats/email.js";
import { hostname } from "./formats/hostname.js";

export { email, hostname };

/** A format check: true when the string conforms. */
export type FormatCheck = (s: string) => boolean;

/** Every format of the plugin, keyed by its schema name. */
export const formats = {
  hostname,
  email,
} as const satisfies Record<string, FormatCheck>;

export type FormatName = keyof typeof formats;
export const formatNames = Object.keys(formats) as FormatName[];

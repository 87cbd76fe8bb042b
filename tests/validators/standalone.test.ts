/**
 * Every format and keyword in ajv standalone code (CommonJS), as the app's
 * build precompiles them: plain ajv standaloneCode, and rjsf's
 * compileSchemaValidatorsCode with the plugin as extenderFn.
 */
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone";
import { compileSchemaValidatorsCode } from "@rjsf/validator-ajv8/compileSchemaValidators";
import addValidators, { formatNames, messageKeyFor, keywordNames } from "../../src/validators/index.js";
import * as formatsModule from "../../src/validators/formats.js";
import { examples } from "./examples.js";

const nodeRequire = createRequire(import.meta.url);
const MODULE = "frontdoor/validators/formats";

/** Loads CommonJS standalone code; MODULE resolves to the TS source under test. */
function load(code: string): any {
  const requireShim = (id: string) => (id === MODULE ? formatsModule : nodeRequire(id));
  const module = { exports: {} as any };
  new Function("require", "module", "exports", code)(requireShim, module, module.exports);
  return module.exports;
}

const formatProps = Object.fromEntries(formatNames.map((f) => [f, { type: "string", format: f }]));
const syncSchema = {
  $id: "everything",
  type: "object",
  properties: {
    ...formatProps,
    name: { type: "string", notBlank: true, limit: "name" },
    organization: { type: "string", limit: "organization" },
    item: { type: "string", limit: "defaultItem" },
    password: { type: "string", passwordPolicy: true },
    passwordConfirm: { type: "string", sameAs: "password" },
    port: { type: "integer", integerRange: [1, 65535] },
    portText: { type: "string", integerRange: [1, 65535] },
  },
};
const asyncSchema = {
  $id: "registration",
  $async: true,
  type: "object",
  properties: { email: { type: "string", format: "email", inUse: "email" } },
};

function validDoc(): Record<string, unknown> {
  const doc: Record<string, unknown> = Object.fromEntries(formatNames.map((f) => [f, examples[f].valid[0]]));
  Object.assign(doc, {
    name: "Ada",
    organization: "Acme",
    item: "x",
    password: "Passw0rd",
    passwordConfirm: "Passw0rd",
    port: 443,
    portText: "8080",
  });
  return doc;
}

describe("standalone code", () => {
  const ajv = addValidators(new Ajv({ code: { source: true }, allErrors: true, schemas: [syncSchema, asyncSchema] }));
  const code = standaloneCode(ajv, { everything: "everything", registration: "registration" });
  const mod = load(code);

  it("references the formats module, not closures", () => {
    expect(code).toContain(`require("${MODULE}")`);
    expect(keywordNames.length).toBe(6);
  });

  it("accepts a valid document", () => {
    expect(mod.everything(validDoc())).toBe(true);
  });

  it("rejects each format's invalid examples with the format's key", () => {
    for (const f of formatNames) {
      for (const bad of examples[f].invalid) {
        const ok = mod.everything({ ...validDoc(), [f]: bad });
        expect(ok, `${f} ${JSON.stringify(bad)}`).toBe(false);
        const keys = mod.everything.errors.map((e: any) => messageKeyFor(e).key);
        expect(keys).toEqual([f === "email" ? "validation.email" : f === "mfa-code" ? "validation.mfaCode" : `validation.format.${f}`]);
      }
    }
  });

  it("runs every keyword", () => {
    const bad = {
      ...validDoc(),
      name: "   ",
      organization: "o".repeat(1001),
      item: "i".repeat(151),
      password: "password",
      passwordConfirm: "Password",
      port: 0,
      portText: "65536",
    };
    expect(mod.everything(bad)).toBe(false);
    const got = mod.everything.errors.map((e: any) => [e.instancePath, messageKeyFor(e)]);
    expect(got).toEqual([
      ["/name", { key: "validation.required", values: {} }],
      ["/organization", { key: "validation.maxLength", values: { maxCount: 1000 } }],
      ["/item", { key: "validation.maxLength", values: { maxCount: 150 } }],
      ["/password", { key: "validation.password", values: {} }],
      ["/passwordConfirm", { key: "validation.passwordsDoNotMatch", values: { field: "password" } }],
      ["/port", { key: "validation.integerRange", values: { min: 1, max: 65535 } }],
      ["/portText", { key: "validation.integerRange", values: { min: 1, max: 65535 } }],
    ]);
    expect(mod.everything({ ...validDoc(), name: "n".repeat(151) })).toBe(false);
    expect(messageKeyFor(mod.everything.errors[0])).toEqual({ key: "validation.maxLength", values: { maxCount: 150 } });
  });

  it("runs the async inUse keyword against the registered checker", async () => {
    formatsModule.setInUseChecker(async (value, kind) => kind === "email" && value === "taken@example.com");
    try {
      await expect(mod.registration({ email: "free@example.com" })).resolves.toEqual({ email: "free@example.com" });
      const err = await mod.registration({ email: "taken@example.com" }).catch((e: any) => e);
      expect(err.errors.map((e: any) => messageKeyFor(e))).toEqual([{ key: "validation.emailInUse", values: { kind: "email" } }]);
    } finally {
      formatsModule.setInUseChecker(undefined);
    }
  });
});

describe("rjsf precompiled validators", () => {
  it("compiles with the plugin as extenderFn and keeps ajv-formats formats working", () => {
    const schema = {
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date-time" },
        host: { type: "string", format: "hostname" },
        org: { type: "string", notBlank: true, limit: "organization" },
      },
    };
    const code = compileSchemaValidatorsCode(schema as any, {
      extenderFn: (ajv: any) => addValidators(ajv, { formatsModule: MODULE }),
    });
    const fns = load(code);
    const validate = Object.values(fns).find((f) => typeof f === "function") as any;
    expect(validate({ email: "a@example.com", when: "2024-01-02T03:04:05Z", host: "example.com", org: "Acme" })).toBe(true);
    expect(validate({ email: '"q"@example.com', when: "yesterday", host: "-x", org: " " })).toBe(false);
    expect(validate.errors.map((e: any) => messageKeyFor(e).key).sort()).toEqual(
      ["validation.email", "validation.format.hostname", "validation.invalid", "validation.required"].sort(),
    );
  });
});

/** 50,000-character hostile inputs, shared by the hostile-input test and the benchmark. */
export const HOSTILE_LENGTH = 50_000;

function fill(unit: string, tail = "!"): string {
  return unit.repeat(Math.ceil((HOSTILE_LENGTH - tail.length) / unit.length)).slice(0, HOSTILE_LENGTH - tail.length) + tail;
}

export const hostileInputs: Record<string, string> = {
  letters: fill("a"),
  digits: fill("1"),
  dottedDigits: fill("1."),
  dottedLabels: fill("a."),
  hyphenLabels: fill("a-"),
  colons: fill(":"),
  hexGroups: fill("ffff:"),
  doubleColons: fill("1::"),
  atSigns: fill("a@"),
  emailish: fill("a.b") + "@example.com",
  punycode: "xn--" + fill("a9"),
  percent: "http://example.com/" + fill("%4"),
  urlPath: "https://example.com/" + fill("a/"),
  urlUserinfo: "http://" + fill("a:") + "@x",
  backslashes: fill("\\"),
  uncDeep: "\\\\server\\share\\" + fill("d\\"),
  windowsDeep: "C:\\" + fill("d\\"),
  slashes: fill("/"),
  macDeep: "/" + fill("d/"),
  stars: fill("*"),
  oidArcs: fill(".1"),
  fraction: fill("1") + "/",
  ranges: fill("1.1.1.1-"),
  cidrs: fill("1.1.1.1/"),
  spaces: fill(" "),
  unicode: fill("\u00e9\u200c"),
};

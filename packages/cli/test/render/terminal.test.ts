import { describe, expect, it } from "vitest";
import { colorEnabled, inkTerminal, interactiveTerminal } from "../../src/render/terminal.js";

describe("terminal decisions (cli.md §8.4)", () => {
  const tty = { stdoutIsTTY: true, env: {} };

  it("plain colour needs a TTY, CI and NO_COLOR unset or empty, TERM not dumb", () => {
    expect(colorEnabled(tty)).toBe(true);
    expect(colorEnabled({ ...tty, env: { CI: "", NO_COLOR: "" } })).toBe(true);
    expect(colorEnabled({ ...tty, stdoutIsTTY: false })).toBe(false);
    expect(colorEnabled({ ...tty, env: { CI: "true" } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { NO_COLOR: "1" } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { TERM: "dumb" } })).toBe(false);
  });

  it("the Ink view refuses NO_COLOR even when set to the empty string", () => {
    expect(inkTerminal(tty)).toBe(true);
    expect(inkTerminal({ ...tty, env: { NO_COLOR: "" } })).toBe(false);
    expect(inkTerminal({ ...tty, env: { CI: "1" } })).toBe(false);
    expect(inkTerminal({ ...tty, stdoutIsTTY: false })).toBe(false);
  });

  it("init needs stdin to be a TTY as well", () => {
    expect(interactiveTerminal({ ...tty, stdinIsTTY: true })).toBe(true);
    expect(interactiveTerminal({ ...tty, stdinIsTTY: false })).toBe(false);
  });
});

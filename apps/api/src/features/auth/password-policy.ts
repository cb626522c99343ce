import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { problems } from '../../http/problem.ts';

/**
 * The one password policy of the product (docs/adr/0016): every place that sets a password from a
 * person's input (reset, invite acceptance, `users:add`, admin screens) calls `assertPasswordPolicy`.
 * The length limits stay in the shared zod schema so the web checks them as you type; the rest runs on
 * the server only, so the web bundle never carries the dictionaries and shows the server's message.
 */

/** zxcvbn's "safely unguessable" class: about 10^8 guesses, far beyond what the sign-in limits allow. */
const MIN_SCORE = 3;
/** zxcvbn's matching grows fast with length; a password whose first 64 characters are weak is weak. */
const EVALUATED_LENGTH = 64;
const PRODUCT_WORDS = ['fvg'];

export const PASSWORD_MESSAGES = {
  common: 'This password is too common. Choose a less predictable one, e.g. a few unrelated words.',
  personal: 'Do not build the password from your email address or the product name.',
  weak: 'This password is too easy to guess. Make it longer or add unrelated words.',
} as const;

// Loaded on first use: the dictionaries cost a few MB and ~50 ms that a node serving only reads never pays.
let factory: Promise<ZxcvbnFactory> | undefined;
function estimator(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) =>
      new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
  );
  return factory;
}

/** The words a guesser tries first for this account: the email, its parts, and the product name. */
function personalWords(email: string): string[] {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const labels = domain.split('.');
  // The last label is the top-level domain ("com", "example"): too generic to forbid on its own.
  const words = [local, ...local.split(/[._+-]+/), ...labels.slice(0, -1), ...PRODUCT_WORDS];
  return [...new Set(words.filter((w) => w.length >= 3))].sort((a, b) => b.length - a.length);
}

/** The policy's verdict: undefined for an acceptable password, else the message for the field. */
export async function passwordPolicyMessage(
  password: string,
  context: { email: string },
): Promise<string | undefined> {
  const zxcvbn = await estimator();
  const words = personalWords(context.email);
  const candidate = password.slice(0, EVALUATED_LENGTH);

  // A password is "built from" the email or product name when what is left without those words
  // would not pass on its own ("ninabakker2026", "fvg-logistics"); words merely among others are fine.
  let rest = candidate.toLowerCase();
  for (const word of words) rest = rest.split(word).join(' ');
  if (rest !== candidate.toLowerCase() && zxcvbn.check(rest.trim()).score < MIN_SCORE) {
    return PASSWORD_MESSAGES.personal;
  }

  const result = zxcvbn.check(candidate, words);
  if (result.score >= MIN_SCORE) return undefined;
  if (result.sequence.some((m) => 'dictionaryName' in m && m.dictionaryName === 'userInputs')) {
    return PASSWORD_MESSAGES.personal;
  }
  const warning = result.feedback.warning ?? '';
  return ['common', 'topTen', 'topHundred', 'similarToCommon'].includes(warning)
    ? PASSWORD_MESSAGES.common
    : PASSWORD_MESSAGES.weak;
}

/** Throws a 400 problem with the message on `password` when the policy refuses it. */
export async function assertPasswordPolicy(password: string, context: { email: string }): Promise<void> {
  const message = await passwordPolicyMessage(password, context);
  if (message) throw problems.validation([{ field: 'password', message }]);
}

// GitLab 10.8's BroadcastMessage validations, in the model's order: `message`, `starts_at` and
// `ends_at` present; `color` and `font`, when not blank, a web colour: '#' and 3 or 6
// hexadecimal digits (ColorValidator, whose `\Z` lets one final newline through).
import { Invalid } from '../../store/domain_errors.js';

export interface BroadcastMessageFields {
  message: string | null;
  starts_at: string | null;
  ends_at: string | null;
  color: string | null;
  font: string | null;
}

const COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}\n?$/;
const blank = (v: string | null) => v === null || v.trim() === '';

export function validateBroadcastMessage(m: BroadcastMessageFields): void {
  const errors: Record<string, string[]> = {};
  if (blank(m.message)) errors.message = ["can't be blank"];
  if (m.starts_at === null) errors.starts_at = ["can't be blank"];
  if (m.ends_at === null) errors.ends_at = ["can't be blank"];
  if (!blank(m.color) && !COLOR.test(m.color!)) errors.color = ['must be a valid color code'];
  if (!blank(m.font) && !COLOR.test(m.font!)) errors.font = ['must be a valid color code'];
  if (Object.keys(errors).length) throw new Invalid(errors);
}

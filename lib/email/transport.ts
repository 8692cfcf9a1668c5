import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '../config';

let transport: Transporter | undefined;

/** SMTP when `SMTP_URL` is set (e.g. smtp://user:pass@mail.example.com:587); otherwise undefined. */
export function smtpTransport(): Transporter | undefined {
  const url = config.email.smtpUrl;
  if (!url) return undefined;
  transport ??= nodemailer.createTransport(url);
  return transport;
}

export function mailFrom(): string {
  return config.email.mailFrom;
}

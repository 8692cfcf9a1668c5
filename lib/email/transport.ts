import nodemailer, { type Transporter } from 'nodemailer';

let transport: Transporter | undefined;

/** SMTP when `SMTP_URL` is set (e.g. smtp://user:pass@mail.example.com:587); otherwise undefined. */
export function smtpTransport(): Transporter | undefined {
  const url = process.env.SMTP_URL;
  if (!url) return undefined;
  transport ??= nodemailer.createTransport(url);
  return transport;
}

export function mailFrom(): string {
  return process.env.MAIL_FROM ?? 'Paybase <no-reply@localhost>';
}

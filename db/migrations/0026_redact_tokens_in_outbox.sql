-- Mails written before the outbox sealed its tokens hold them in clear: redact every emailed
-- sign-in, invitation, verification, reset and portal token (a live one can be asked for again).
UPDATE "outbound_emails"
SET
  "text_body" = regexp_replace(regexp_replace("text_body", '((mlt|inv|emv|prt)_[A-Za-z0-9_-]{16,})', '[redacted]', 'g'), '([?&]token=)[A-Za-z0-9_%-]+', '\1[redacted]', 'g'),
  "html_body" = regexp_replace(regexp_replace("html_body", '((mlt|inv|emv|prt)_[A-Za-z0-9_-]{16,})', '[redacted]', 'g'), '([?&](amp;)?token=)[A-Za-z0-9_%-]+', '\1[redacted]', 'g')
WHERE "category" IN ('member.login', 'merchant.invitation', 'merchant.verify_email', 'merchant.password_reset', 'portal.link');

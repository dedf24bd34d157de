ALTER TABLE `email_tokens` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `browser_hash` text;
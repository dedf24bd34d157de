ALTER TABLE `email_tokens` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `browser_hash` text;--> statement-breakpoint
CREATE INDEX `clips_created_cost_idx` ON `clips` (`created_at`,`cost`);
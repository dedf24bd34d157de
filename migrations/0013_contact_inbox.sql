CREATE TABLE `contact_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`admin_id` text,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `contact_messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `contact_replies_message_idx` ON `contact_replies` (`message_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `status` text DEFAULT 'new' NOT NULL;--> statement-breakpoint
CREATE INDEX `contact_messages_status_created_idx` ON `contact_messages` (`status`,`created_at`);
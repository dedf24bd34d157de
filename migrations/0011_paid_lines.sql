CREATE TABLE `billing_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`event_type` text NOT NULL,
	`object_id` text,
	`user_id` text,
	`detail` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billing_alerts_created_idx` ON `billing_alerts` (`created_at`);--> statement-breakpoint
CREATE TABLE `credit_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`subscription_id` text,
	`label` text NOT NULL,
	`plan` text,
	`billing` text,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`charged_cents` integer NOT NULL,
	`months` text NOT NULL,
	`returned` text DEFAULT '{}' NOT NULL,
	`granted` integer DEFAULT 0 NOT NULL,
	`stop_at` integer,
	`moves` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_lines_user_idx` ON `credit_lines` (`user_id`,`end_at`);--> statement-breakpoint
CREATE INDEX `credit_lines_payment_idx` ON `credit_lines` (`payment_id`);
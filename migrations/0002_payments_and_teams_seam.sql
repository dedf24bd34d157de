CREATE TABLE `billing_customers` (
	`user_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_customers_customer_unique` ON `billing_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`processed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`number` text,
	`description` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`payment_intent_id` text,
	`invoice_url` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_payments_user_idx` ON `billing_payments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `billing_payments_intent_idx` ON `billing_payments` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `billing_payments_paid_idx` ON `billing_payments` (`paid_at`);--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`plan` text NOT NULL,
	`interval` text NOT NULL,
	`pending_plan` text,
	`current_period_start` integer NOT NULL,
	`current_period_end` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_subscriptions_user_idx` ON `billing_subscriptions` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `stripe_local_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`delivered` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stripe_local_objects_type_idx` ON `stripe_local_objects` (`type`,`delivered`);--> statement-breakpoint
ALTER TABLE `credit_holds` ADD `creator_id` text;
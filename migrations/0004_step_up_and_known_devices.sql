CREATE TABLE `known_devices` (
	`user_id` text NOT NULL,
	`device_hash` text NOT NULL,
	`last_sign_in_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `device_hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `sessions` ADD `step_up_at` integer;
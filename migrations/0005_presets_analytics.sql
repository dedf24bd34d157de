CREATE TABLE `presets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`format` text NOT NULL,
	`quality` text NOT NULL,
	`clip_seconds` real,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `presets_user_name_unique` ON `presets` (`user_id`,`name`);--> statement-breakpoint
CREATE INDEX `presets_user_created_idx` ON `presets` (`user_id`,`created_at`);--> statement-breakpoint
DROP INDEX `clips_user_created_idx`;--> statement-breakpoint
CREATE INDEX `clips_user_stats_idx` ON `clips` (`user_id`,`created_at`,`cost`,`start_time_seconds`,`end_time_seconds`,`format`,`quality`,`video_url`);
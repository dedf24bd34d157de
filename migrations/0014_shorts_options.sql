ALTER TABLE `clips` ADD `aspect` text DEFAULT 'original' NOT NULL;--> statement-breakpoint
ALTER TABLE `clips` ADD `crop_position` real;--> statement-breakpoint
ALTER TABLE `clips` ADD `captions_track` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `captions_mode` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `captions_srt` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `presets` ADD `aspect` text DEFAULT 'original' NOT NULL;--> statement-breakpoint
ALTER TABLE `presets` ADD `crop_position` real;--> statement-breakpoint
ALTER TABLE `presets` ADD `captions_track` text;--> statement-breakpoint
ALTER TABLE `presets` ADD `captions_mode` text;--> statement-breakpoint
ALTER TABLE `presets` ADD `captions_srt` integer DEFAULT false NOT NULL;
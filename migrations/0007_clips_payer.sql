ALTER TABLE `clips` ADD `payer_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `plan_set_by` text;--> statement-breakpoint
-- Backfill (written once, with this migration): the payer is the account whose ledger row charged the clip (a
-- team member's clip: the owner's); a clip without a charge row (seeded, free) is paid by its creator.
UPDATE `clips` SET `payer_id` = coalesce((SELECT l.`user_id` FROM `credit_ledger` l WHERE l.`clip_id` = `clips`.`id` AND l.`kind` = 'clip' LIMIT 1), `user_id`);

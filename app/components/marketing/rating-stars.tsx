import { StarIcon } from "./icons";

/** Five stars, `rating` of them filled; read out as "Rated 4 out of 5". */
export function RatingStars({ rating, className = "" }: { rating: number; className?: string }) {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <p className={`flex items-center gap-0.5 text-amber-500 ${className}`}>
      {Array.from({ length: 5 }, (_, i) => (
        <StarIcon key={i} filled={i < filled} className="h-4 w-4" />
      ))}
      <span className="sr-only">Rated {filled} out of 5</span>
    </p>
  );
}

import type { Testimonial, TestimonialColor } from "~/domain/testimonials";
import { RatingStars } from "./rating-stars";

/** Full class names, so Tailwind keeps them; all pass 4.5:1 with white text. */
const AVATAR_CLASSES: Record<TestimonialColor, string> = {
  brand: "bg-brand-600",
  emerald: "bg-emerald-700",
  rose: "bg-rose-600",
  amber: "bg-amber-700",
  violet: "bg-violet-600",
  cyan: "bg-cyan-700",
};

export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <li className="card flex h-full flex-col">
      <figure className="flex h-full flex-col">
        <RatingStars rating={testimonial.rating} />
        <blockquote className="mt-4 flex-1 leading-7 text-slate-700">
          <p>“{testimonial.quote}”</p>
        </blockquote>
        <figcaption className="mt-6 flex items-center gap-3">
          <span
            className={`grid h-11 w-11 shrink-0 place-items-center rounded-full text-lg font-semibold text-white ${AVATAR_CLASSES[testimonial.color]}`}
            aria-hidden="true"
          >
            {testimonial.avatarLetter}
          </span>
          <span>
            <span className="block font-semibold text-slate-900">{testimonial.name}</span>
            <span className="block text-sm text-slate-600">{testimonial.role}</span>
          </span>
        </figcaption>
      </figure>
    </li>
  );
}

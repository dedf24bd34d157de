import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [
  { title: "ClipCut — Cut and download clips from any video" },
  { name: "description", content: "Trim and download high-quality clips from online videos." },
];

export default function Index() {
  return (
    <section className="container-page py-20">
      <h1 className="text-4xl font-bold">Cut the moments that matter</h1>
      <Link to="/download" className="btn-primary mt-6">
        Create your clips
      </Link>
    </section>
  );
}

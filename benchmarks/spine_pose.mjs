// Times the official Spine runtime posing a skeleton: for each animation, FRAMES samples
// at 30 fps (wrapping at the animation's end), each setToSetupPose + apply + update(1/30)
// + updateWorldTransform(Physics.update) as a game does (physics constraints step), best
// of 7. Prints one JSON line per animation.
// usage: node spine_pose.mjs SKELETON.json FRAMES   (run by bench_spine.py)
import fs from "fs";
import * as spine from "@esotericsoftware/spine-core";

const [, , path, framesArg] = process.argv;
const frames = Number(framesArg || 10000);
const region = () => ({ u: 0, v: 0, u2: 1, v2: 1, width: 1, height: 1, degrees: 0, offsetX: 0, offsetY: 0,
  originalWidth: 1, originalHeight: 1, texture: null });
const loader = {  // no textures: posing bones only needs the attachments to exist
  newRegionAttachment(skin, name, p) { const a = new spine.RegionAttachment(name, p); a.region = region(); return a; },
  newMeshAttachment(skin, name, p) { const a = new spine.MeshAttachment(name, p); a.region = region(); return a; },
  newBoundingBoxAttachment(skin, name) { return new spine.BoundingBoxAttachment(name); },
  newPathAttachment(skin, name) { return new spine.PathAttachment(name); },
  newPointAttachment(skin, name) { return new spine.PointAttachment(name); },
  newClippingAttachment(skin, name) { return new spine.ClippingAttachment(name); },
};
const data = new spine.SkeletonJson(loader).readSkeletonData(fs.readFileSync(path, "utf8"));
const skeleton = new spine.Skeleton(data);
let sink = 0;  // keeps the work observable
for (const animation of data.animations) {
  let best = Infinity;
  for (let repeat = 0; repeat < 7; repeat++) {
    skeleton.setToSetupPose();
    skeleton.updateWorldTransform(spine.Physics.reset);
    const start = process.hrtime.bigint();
    for (let i = 0; i < frames; i++) {
      const t = animation.duration > 0 ? (i / 30) % animation.duration : 0;
      skeleton.setToSetupPose();
      animation.apply(skeleton, t, t, false, [], 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
      skeleton.update(1 / 30);  // a game at 30 fps: physics constraints step
      skeleton.updateWorldTransform(spine.Physics.update);
      sink += skeleton.bones[skeleton.bones.length - 1].worldX;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  console.log(JSON.stringify({ animation: animation.name, bones: skeleton.bones.length, frames, seconds: best,
    finite: Number.isFinite(sink) }));
}

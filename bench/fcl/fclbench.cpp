// fclbench: the peer harness of `gloved bench scenes --export DIR`. It reads
// what `gloved export` writes (links/NAME.obj in each link's frame,
// scene.obj in the world, frames.txt with every link's pose per frame,
// contacts.jsonl with gloved's contacts) and times FCL 0.7 (OBBRSS, the
// library most robotics code uses) on the same geometry and frames:
// first contact per link (a boolean), all contacts, and distance for all
// links. It prints one JSON object; it also counts the frames where FCL
// finds a link touching that gloved does not report (a miss), and those
// where gloved reports more (a link wholly inside a solid, which a
// triangle query does not see, is in contact in gloved's semantics).
//
// Build and run: bench/fcl/run.sh DIR...   (needs Debian's libfcl-dev)
#include <fcl/fcl.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "../export.h"

using Model = fcl::BVHModel<fcl::OBBRSSd>;
namespace fs = std::filesystem;
using exported::pct;

static std::shared_ptr<Model> model(const exported::Mesh& m) {
  std::vector<fcl::Vector3d> v;
  for (auto& p : m.v) v.emplace_back(p[0], p[1], p[2]);
  std::vector<fcl::Triangle> t;
  for (auto& f : m.t) t.emplace_back(f[0], f[1], f[2]);
  auto b = std::make_shared<Model>();
  b->beginModel();
  b->addSubModel(v, t);
  b->endModel();
  return b;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fclbench EXPORT_DIR\n");
    return 2;
  }
  std::string dir = argv[1];
  auto t0 = std::chrono::steady_clock::now();
  auto scene = model(exported::readOBJ(dir + "/scene.obj"));
  double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fcl::CollisionObjectd sceneObj(scene, fcl::Transform3d::Identity());
  std::map<std::string, std::shared_ptr<Model>> links;
  for (auto& e : fs::directory_iterator(dir + "/links"))
    links[e.path().stem().string()] = model(exported::readOBJ(e.path().string()));

  auto frames = exported::readFrames(dir);
  auto gloved = exported::readContacts(dir);

  std::vector<double> first, all, dist;
  int missed = 0, more = 0;
  for (auto& [f, poses] : frames) {
    std::set<std::string> touching;
    double tf = 0, ta = 0, td = 0;
    for (auto& p : poses) {
      const std::string& name = p.link;
      fcl::Transform3d x = fcl::Transform3d::Identity();
      fcl::Matrix3d r;
      r << p.r[0], p.r[1], p.r[2], p.r[3], p.r[4], p.r[5], p.r[6], p.r[7], p.r[8];
      x.linear() = r;
      x.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
      fcl::CollisionObjectd link(links[name], x);
      auto a = std::chrono::steady_clock::now();
      fcl::CollisionRequestd r1(1, false);
      fcl::CollisionResultd s1;
      fcl::collide(&link, &sceneObj, r1, s1);
      auto b = std::chrono::steady_clock::now();
      fcl::CollisionRequestd r2(1000000, true);
      fcl::CollisionResultd s2;
      fcl::collide(&link, &sceneObj, r2, s2);
      auto c = std::chrono::steady_clock::now();
      fcl::DistanceRequestd r3;
      fcl::DistanceResultd s3;
      fcl::distance(&link, &sceneObj, r3, s3);
      auto d = std::chrono::steady_clock::now();
      tf += std::chrono::duration<double, std::micro>(b - a).count();
      ta += std::chrono::duration<double, std::micro>(c - b).count();
      td += std::chrono::duration<double, std::micro>(d - c).count();
      if (s1.isCollision()) touching.insert(name);
    }
    first.push_back(tf);
    all.push_back(ta);
    dist.push_back(td);
    if (size_t(f) < gloved.size()) {
      bool all = std::includes(gloved[f].begin(), gloved[f].end(), touching.begin(), touching.end());
      if (!all) missed++;
      else if (gloved[f].size() > touching.size()) more++;
    }
  }
  std::printf("{\"dir\":\"%s\",\"scene_tris\":%d,\"build_s\":%.4f,\"frames\":%zu,"
              "\"first_p50_us\":%.1f,\"first_p99_us\":%.1f,\"all_p50_us\":%.1f,\"all_p99_us\":%.1f,"
              "\"distance_p50_us\":%.1f,\"distance_p99_us\":%.1f,\"frames_fcl_touches_more\":%d,\"frames_gloved_touches_more\":%d}\n",
              dir.c_str(), scene->num_tris, build, frames.size(), pct(first, 0.5), pct(first, 0.99), pct(all, 0.5),
              pct(all, 0.99), pct(dist, 0.5), pct(dist, 0.99), missed, more);
  return 0;
}

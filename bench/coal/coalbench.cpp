// coalbench: the coal and FCL peer harness of `gloved bench scenes --export
// DIR`. It reads what the export writes (links/NAME.obj in each link's
// frame, scene.obj in the world, frames.txt with every link's pose per
// frame, contacts.jsonl with gloved's answers, gloved.json with gloved's
// own timing of the same frames) and times, per frame:
//
//   coal 3, the same work as gloved's collision part: per link, collide
//     with security_margin = the band and one contact, then, for each link
//     it flags, the exact distance (with its nearest points). coal computes
//     no solid penetration depth, so it does less than gloved on touching
//     links.
//   FCL 0.7's first contact per link (a boolean), the floor to approach,
//   and FCL's all contacts.
//
// It prints one JSON object a directory: p50/p99 and mean of each over
// the frames gloved timed (after its warm-up), gloved's collision part
// p50/p99/mean from gloved.json, the ratios coal/gloved and FCL/gloved of
// p50s and of means (a mean weighs each frame by its work, where a p50
// can fall on frames with nothing near), and the frames where a peer finds a link touching that
// gloved does not report (gloved reports more where a link is wholly
// inside a solid, which a triangle query cannot see).
//
// Build and run: bench/coal/run.sh DIR...   (needs coal 3 built from its
// source and Debian's libfcl-dev: see bench/coal/build.sh)
#include <coal/BVH/BVH_model.h>
#include <coal/collision.h>
#include <coal/distance.h>
#include <fcl/fcl.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "../export.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using exported::pct;

static std::shared_ptr<coal::BVHModel<coal::OBBRSS>> coalModel(const exported::Mesh& m) {
  auto b = std::make_shared<coal::BVHModel<coal::OBBRSS>>();
  std::vector<coal::Vec3s> v;
  for (auto& p : m.v) v.emplace_back(p[0], p[1], p[2]);
  std::vector<coal::Triangle> t;
  for (auto& f : m.t) t.emplace_back(f[0], f[1], f[2]);
  b->beginModel();
  b->addSubModel(v, t);
  b->endModel();
  return b;
}

static std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fclModel(const exported::Mesh& m) {
  auto b = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Vector3d> v;
  for (auto& p : m.v) v.emplace_back(p[0], p[1], p[2]);
  std::vector<fcl::Triangle> t;
  for (auto& f : m.t) t.emplace_back(f[0], f[1], f[2]);
  b->beginModel();
  b->addSubModel(v, t);
  b->endModel();
  return b;
}

// number reads "key":value from a one-line JSON object (gloved.json).
static double number(const std::string& json, const std::string& key) {
  auto p = json.find("\"" + key + "\":");
  if (p == std::string::npos) return 0;
  return std::stod(json.substr(p + key.size() + 3));
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: coalbench EXPORT_DIR\n");
    return 2;
  }
  std::string dir = argv[1];
  std::ifstream gj(dir + "/gloved.json");
  std::string gloved((std::istreambuf_iterator<char>(gj)), std::istreambuf_iterator<char>());
  double band = number(gloved, "band_m");

  exported::Mesh sceneMesh = exported::readOBJ(dir + "/scene.obj");
  auto t0 = Clock::now();
  auto coalScene = coalModel(sceneMesh);
  double coalBuild = std::chrono::duration<double>(Clock::now() - t0).count();
  t0 = Clock::now();
  auto fclScene = fclModel(sceneMesh);
  double fclBuild = std::chrono::duration<double>(Clock::now() - t0).count();
  coal::CollisionObject coalSceneObj(coalScene, coal::Transform3s::Identity());
  fcl::CollisionObjectd fclSceneObj(fclScene, fcl::Transform3d::Identity());

  std::map<std::string, std::shared_ptr<coal::BVHModel<coal::OBBRSS>>> coalLinks;
  std::map<std::string, std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>>> fclLinks;
  for (auto& e : fs::directory_iterator(dir + "/links")) {
    exported::Mesh m = exported::readOBJ(e.path().string());
    coalLinks[e.path().stem().string()] = coalModel(m);
    fclLinks[e.path().stem().string()] = fclModel(m);
  }

  auto frames = exported::readFrames(dir);
  auto glovedTouch = exported::readContacts(dir);

  // The frames gloved timed: those after its warm-up (older exports say
  // none, and all frames count).
  int warm = int(number(gloved, "warm_frames"));
  std::vector<double> same, first, all;
  int coalMore = 0, fclMore = 0;
  for (auto& [f, poses] : frames) {
    if (f < warm) continue;
    std::set<std::string> coalTouch, fclTouch;
    double ts = 0, tf = 0, ta = 0;
    for (auto& p : poses) {
      Eigen::Matrix3d r;
      r << p.r[0], p.r[1], p.r[2], p.r[3], p.r[4], p.r[5], p.r[6], p.r[7], p.r[8];
      Eigen::Vector3d tr(p.t[0], p.t[1], p.t[2]);
      coal::CollisionObject cl(coalLinks[p.link], coal::Transform3s(r, tr));
      auto a = Clock::now();
      coal::CollisionRequest req(coal::CONTACT, 1);
      req.security_margin = band;
      coal::CollisionResult res;
      coal::collide(&cl, &coalSceneObj, req, res);
      if (res.isCollision()) {
        coal::DistanceRequest dreq(true);
        coal::DistanceResult dres;
        coal::distance(&cl, &coalSceneObj, dreq, dres);
        if (dres.min_distance <= 0) coalTouch.insert(p.link);
      }
      auto b = Clock::now();
      fcl::Transform3d x = fcl::Transform3d::Identity();
      x.linear() = r;
      x.translation() = tr;
      fcl::CollisionObjectd fl(fclLinks[p.link], x);
      auto c = Clock::now();
      fcl::CollisionRequestd r1(1, false);
      fcl::CollisionResultd s1;
      fcl::collide(&fl, &fclSceneObj, r1, s1);
      auto d = Clock::now();
      fcl::CollisionRequestd r2(1000000, true);
      fcl::CollisionResultd s2;
      fcl::collide(&fl, &fclSceneObj, r2, s2);
      auto e = Clock::now();
      ts += std::chrono::duration<double, std::micro>(b - a).count();
      tf += std::chrono::duration<double, std::micro>(d - c).count();
      ta += std::chrono::duration<double, std::micro>(e - d).count();
      if (s1.isCollision()) fclTouch.insert(p.link);
    }
    same.push_back(ts);
    first.push_back(tf);
    all.push_back(ta);
    if (size_t(f) < glovedTouch.size()) {
      auto& g = glovedTouch[f];
      if (!std::includes(g.begin(), g.end(), coalTouch.begin(), coalTouch.end())) coalMore++;
      if (!std::includes(g.begin(), g.end(), fclTouch.begin(), fclTouch.end())) fclMore++;
    }
  }
  double g50 = number(gloved, "collision_p50_us"), g99 = number(gloved, "collision_p99_us");
  double gMean = number(gloved, "collision_mean_us");
  auto ratio = [&](double x) { return g50 > 0 ? x / g50 : 0; };
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / v.size();
  };
  std::printf("{\"dir\":\"%s\",\"scene_tris\":%zu,\"frames\":%zu,\"band_m\":%g,"
              "\"gloved_p50_us\":%.1f,\"gloved_p99_us\":%.1f,"
              "\"coal_build_s\":%.3f,\"coal_p50_us\":%.1f,\"coal_p99_us\":%.1f,"
              "\"fcl_build_s\":%.3f,\"fcl_first_p50_us\":%.1f,\"fcl_first_p99_us\":%.1f,\"fcl_all_p50_us\":%.1f,\"fcl_all_p99_us\":%.1f,"
              "\"coal_over_gloved\":%.2f,\"fcl_first_over_gloved\":%.2f,"
              "\"gloved_mean_us\":%.1f,\"coal_mean_us\":%.1f,\"fcl_first_mean_us\":%.1f,"
              "\"coal_mean_over_gloved\":%.2f,\"fcl_first_mean_over_gloved\":%.2f,"
              "\"frames_coal_touches_more\":%d,\"frames_fcl_touches_more\":%d}\n",
              dir.c_str(), sceneMesh.t.size(), frames.size(), band, g50, g99, coalBuild, pct(same, 0.5), pct(same, 0.99),
              fclBuild, pct(first, 0.5), pct(first, 0.99), pct(all, 0.5), pct(all, 0.99), ratio(pct(same, 0.5)),
              ratio(pct(first, 0.5)), gMean, mean(same), mean(first), gMean > 0 ? mean(same) / gMean : 0,
              gMean > 0 ? mean(first) / gMean : 0, coalMore, fclMore);
  return 0;
}

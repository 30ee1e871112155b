// Draws a module's map (core::MapDef) as vector shapes: terrain fills and symbols, hexsides
// (rivers, bridges, lakes, roads), region borders, city markers; names and hex labels as
// batched screen-space text so they stay crisp at every zoom. The static geometry is built once
// in world coordinates and uploaded to GPU vertex buffers. Or, when the module ships map art
// (map.xml <art>) and it is switched on, the art (split into textures the driver can hold,
// placed by the calibration) under the grid and whatever of the drawn map <art vector=> keeps.
// draw_cached() renders all that once per zoom level into an off-screen layer and then only
// copies the visible part: panning and redrawing counters do not redraw the map.
#pragma once

#include <SFML/Graphics.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/defs.hpp"
#include "hex/hex.hpp"

namespace vedette::gui {

// The colour around the map (the table it lies on).
extern const sf::Color kTable;

// Where the map is looked at from: world point at the centre of the map viewport, and scale.
struct Camera {
    sf::Vector2f center;
    float zoom = 1.0f;           // screen pixels per world unit
    sf::FloatRect viewport;      // in window pixels
    sf::Vector2u window_size{1, 1};

    sf::View view() const;
    sf::Vector2f to_screen(sf::Vector2f world) const;
    sf::Vector2f to_world(sf::Vector2f screen) const;
    // The same camera moved by less than half a pixel so that world points land on the same
    // pixel grid at every position (a cached layer is then copied 1:1, not resampled).
    Camera snapped() const;
    // Keeps the world point under `screen` fixed while zooming by `factor`.
    void zoom_at(sf::Vector2f screen, float factor, float min_zoom, float max_zoom);
};

// A static batch: a vertex buffer when the driver has them, else a vertex array.
class StaticMesh {
public:
    void set(const sf::VertexArray& va);
    void draw(sf::RenderTarget& t, const sf::RenderStates& st = sf::RenderStates::Default) const;
    size_t vertex_count() const { return count_; }

private:
    sf::VertexArray array_;
    std::unique_ptr<sf::VertexBuffer> buffer_;
    size_t count_ = 0;
};

// An off-screen layer, stored as B8G8R8A8 where the driver allows it, copied to the target 1:1
// with a plain texture-fetch shader and no blending. On Mesa's llvmpipe that is a row copy
// instead of a general fragment shader: a full-window copy costs ~3 ms of CPU instead of ~10.
class LayerTexture {
public:
    bool ensure(unsigned w, unsigned h);  // (re)creates when the size changes; false on failure
    sf::RenderTexture& target() { return texture_; }
    sf::Vector2u size() const { return texture_.getSize(); }
    // Copies `src` (texture pixels, origin top left) to window pixel `dst` of `t`.
    void blit(sf::RenderTarget& t, sf::IntRect src, sf::Vector2f dst) const;

private:
    sf::RenderTexture texture_;
};

class MapRenderer {
public:
    static constexpr float kHexSize = 40.0f;  // world units, centre to corner

    MapRenderer(const core::MapDef& map, const sf::Font& font, const sf::Font& bold);

    // The module's map art (map.xml <art>), read from `module_dir`. False (with `why`) when
    // the image cannot be read; the drawn map is then used.
    bool load_art(const std::string& module_dir, std::string* why);
    bool has_art() const { return !art_tiles_.empty(); }
    bool showing_art() const { return show_art_ && has_art(); }
    void show_art(bool on);

    const hex::Layout& layout() const { return layout_; }
    sf::FloatRect world_bounds() const { return bounds_; }
    sf::Vector2f hex_center(hex::Hex h) const;
    // The hex under a world point, if it is on the map.
    const core::HexDef* hex_at(sf::Vector2f world) const;

    // Map geometry (in the camera's view) plus names/labels in screen space.
    void draw(sf::RenderTarget& target, const Camera& cam) const;
    // The same from the off-screen layer, re-rendered only when the zoom, the art switch or
    // the window size changed or the view left the cached area. Use a snapped() camera so the
    // layer is copied 1:1. Falls back to draw() when off-screen textures are unavailable.
    void draw_cached(sf::RenderTarget& target, const Camera& cam) const;
    // Re-renders of the layer so far (the benchmark reports them).
    int layer_renders() const { return layer_renders_; }
    // The whole map fitted in `rect` (window pixels), with the camera's view outlined.
    void draw_overview(sf::RenderTarget& target, sf::FloatRect rect, const Camera& cam) const;
    // Window-pixel rectangle where draw_overview put the map last (for clicks).
    sf::Vector2f overview_to_world(sf::FloatRect rect, sf::Vector2f screen) const;

    // Highlight overlay helpers (world geometry into `va`).
    void add_hex_fill(sf::VertexArray& va, hex::Hex h, sf::Color c, float inset = 0.0f) const;
    void add_hex_outline(sf::VertexArray& va, hex::Hex h, float width, sf::Color c, float inset = 0.0f) const;

    size_t vertex_count() const;

private:
    void build();
    void add_terrain_symbol(sf::VertexArray& va, const std::string& symbol, sf::Vector2f c, hex::Hex h) const;
    void add_feature_marker(sf::VertexArray& va, const core::HexDef& hd, sf::Vector2f c) const;
    void draw_art(sf::RenderTarget& target, sf::Uint8 alpha) const;
    sf::View overview_view(sf::FloatRect rect, sf::Vector2u win) const;

    const core::MapDef& map_;
    const sf::Font& font_;
    const sf::Font& bold_;
    hex::Layout layout_;
    sf::FloatRect bounds_;
    StaticMesh fills_, grid_, overlay_, markers_;
    bool fills_opaque_ = false, overlay_opaque_ = false, markers_opaque_ = false;  // draw without blending

    struct ArtTile {
        std::unique_ptr<sf::Texture> texture;
        sf::VertexArray quad{sf::Triangles};  // world positions, texture pixels
    };
    std::vector<ArtTile> art_tiles_;
    bool show_art_ = true;

    // draw_cached(): the layer and the area it holds, in pixels at `layer_zoom_` (world * zoom).
    mutable LayerTexture layer_;
    mutable sf::IntRect layer_rect_;
    mutable float layer_zoom_ = 0;
    mutable bool layer_valid_ = false, layer_ok_ = true;
    mutable int layer_renders_ = 0;
    sf::VertexArray overview_va_;
    struct Name {
        sf::Vector2f world;  // anchor (below the marker)
        std::string text;
        int rank = 0;  // 2 fortress/capital, 1 city, 0 other
    };
    std::vector<Name> names_;
    std::vector<Name> line_names_;  // named rivers/roads, a few anchors along each
    mutable sf::RenderTexture overview_cache_;
    mutable sf::FloatRect overview_rect_;
};

}  // namespace vedette::gui

// WritePng: an 8-bit RGBA PNG through libpng, written to "<path>.tmp" and renamed, so
// that a failure leaves no partial file behind.
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "vk_runner.h"

namespace glint::vk {

namespace {

// The image as 8-bit RGBA rows (float channels clamped to [0, 1], uint to [0, 255]).
std::vector<uint8_t> ToRgba8(const Image& image) {
  if (image.format == ColorFormat::kRgba8Unorm) return image.pixels;
  size_t channels = static_cast<size_t>(image.width) * image.height * 4;
  std::vector<uint8_t> out(channels);
  for (size_t i = 0; i < channels; ++i) {
    uint32_t word;
    std::memcpy(&word, image.pixels.data() + 4 * i, 4);
    if (image.format == ColorFormat::kRgba32Uint) {
      out[i] = static_cast<uint8_t>(std::min<uint32_t>(word, 255));
    } else {
      float value;
      std::memcpy(&value, &word, 4);
      value = value != value ? 0.0f : std::clamp(value, 0.0f, 1.0f);
      out[i] = static_cast<uint8_t>(value * 255.0f + 0.5f);
    }
  }
  return out;
}

// libpng reports errors through longjmp; kept in one function without C++ objects
// that need destruction after setjmp.
bool WriteRows(FILE* file, uint32_t width, uint32_t height, const uint8_t* rgba) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t row = 0; row < height; ++row)
    png_write_row(png, const_cast<png_bytep>(rgba + static_cast<size_t>(row) * width * 4));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

bool WritePng(const Image& image, const std::string& path, std::string* error) {
  if (image.pixels.size() != static_cast<size_t>(image.width) * image.height * image.BytesPerPixel()) {
    *error = "cannot write '" + path + "': the image has the wrong number of bytes";
    return false;
  }
  std::vector<uint8_t> rgba = ToRgba8(image);
  std::string temporary = path + ".tmp";
  FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) {
    *error = "cannot open '" + temporary + "' for writing";
    return false;
  }
  bool written = WriteRows(file, image.width, image.height, rgba.data());
  written = std::fclose(file) == 0 && written;
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    *error = "cannot write PNG '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace glint::vk

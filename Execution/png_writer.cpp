// WritePng: an 8-bit RGBA PNG encoded by libpng into memory, then written like every
// output file of the project (StandAlone/output_file.h: atomic replacement of a regular
// file keeping its mode, in place for devices and pipes, every write checked).
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "output_file.h"
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

// libpng's write callback: appends to the std::string behind the io pointer.
void AppendToString(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

void NoFlush(png_structp) {}

// libpng reports errors through longjmp; kept in one function without C++ objects
// that need destruction after setjmp (`encoded` is the caller's).
bool EncodeRows(std::string* encoded, uint32_t width, uint32_t height, const uint8_t* rgba) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  png_set_write_fn(png, encoded, AppendToString, NoFlush);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t row = 0; row < height; ++row)
    png_write_row(png, const_cast<png_bytep>(rgba + static_cast<size_t>(row) * width * 4));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

bool WritePng(const Image& image, const std::string& path, std::string* error) {
  if (image.pixels.size() !=
      static_cast<size_t>(image.width) * image.height * image.BytesPerPixel()) {
    *error = "cannot write '" + path + "': the image has the wrong number of bytes";
    return false;
  }
  std::vector<uint8_t> rgba = ToRgba8(image);
  std::string encoded;
  if (!EncodeRows(&encoded, image.width, image.height, rgba.data())) {
    *error = "cannot encode PNG for '" + path + "'";
    return false;
  }
  output::WriteResult written = output::WriteOutputFile(path, encoded);
  if (!written.ok()) *error = output::DescribeFailure(path, written);
  return written.ok();
}

}  // namespace glint::vk

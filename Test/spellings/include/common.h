vec4 darken(vec4 color) { return color * 0.25; }

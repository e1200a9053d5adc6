varying vec4 color_in;
void main() { gl_FragColor = color_in; }

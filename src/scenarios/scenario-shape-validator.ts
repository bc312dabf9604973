// @ts-nocheck
// Written by `npm run gen:scenario-schema` (test/helpers/scenario-shape-validator.ts); never edited by hand.
// Ajv's standalone code for scenarios/scenario.schema.json (the text whose SHA-256 is SCHEMA_DIGEST),
// compiled with ScenarioParser's options; scenario-shape.ts says why. Ajv's ES module output still
// loads its runtime helpers with require(), hence the createRequire.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const SCHEMA_DIGEST = "c532706007b4e2d93e3ec35a292cac6eb98203e3d233736f229f1af5e8417580";

"use strict";
export const validate = validate10;
export default validate10;
const schema11 = {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://shortlink-mock.test/scenario.schema.json","title":"shortlink-mock scenario","description":"A named list of rules. For each request, the first rule that matches (and has not used up its `times`) shapes the answer: it forces a response, causes a network fault, or only adds a delay before the normal stateful answer. Requests no rule matches get the normal answer.","type":"object","additionalProperties":false,"required":["name","description","rules"],"properties":{"$schema":{"type":"string"},"name":{"description":"The name used in the x-mock-scenario header, --scenario and PUT /__admin/scenario.","type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,62}$"},"description":{"description":"What the scenario is for, shown by GET /__admin/scenarios.","type":"string","minLength":1},"rules":{"type":"array","minItems":1,"items":{"$ref":"#/definitions/rule"}}},"definitions":{"rule":{"type":"object","additionalProperties":false,"required":["match"],"properties":{"match":{"$ref":"#/definitions/match"},"error":{"description":"Shorthand for a built-in error response.","enum":["unauthorized","invalid-request","not-found","link-limit-reached"]},"respond":{"$ref":"#/definitions/respond"},"fault":{"description":"connection-reset: the socket is reset (RST); empty-response: the connection is closed without a byte; no-response: nothing is sent until the client gives up.","enum":["connection-reset","empty-response","no-response"]},"delay":{"$ref":"#/definitions/delay"},"times":{"description":"Apply to the first N matching requests only; later ones fall through to the next rules and the normal answer.","type":"integer","minimum":1}},"anyOf":[{"required":["error"]},{"required":["respond"]},{"required":["fault"]},{"required":["delay"]}],"not":{"anyOf":[{"required":["error","respond"]},{"required":["error","fault"]},{"required":["respond","fault"]}]}},"match":{"type":"object","additionalProperties":false,"required":["operation"],"properties":{"operation":{"description":"An operationId (createLink, updateLink, deleteLink), a list of them, or * for every operation.","oneOf":[{"type":"string","minLength":1},{"type":"array","minItems":1,"items":{"type":"string","minLength":1}}]},"headers":{"description":"Request headers that must have exactly these values (names are case-insensitive).","type":"object","additionalProperties":{"type":"string"}},"body":{"description":"Top-level request body fields that must have exactly these values.","type":"object"},"account":{"description":"The API key of the account the request is for.","type":"string","minLength":1}}},"respond":{"type":"object","additionalProperties":false,"required":["status","body"],"properties":{"status":{"type":"integer","minimum":100,"maximum":599},"body":{"description":"The response body; checked against openapi.yaml at load.","type":"object"}}},"delay":{"description":"Milliseconds before the answer: a number, or a range picked uniformly.","oneOf":[{"type":"integer","minimum":0,"maximum":600000},{"type":"object","additionalProperties":false,"required":["min","max"],"properties":{"min":{"type":"integer","minimum":0,"maximum":600000},"max":{"type":"integer","minimum":0,"maximum":600000}}}]}}};
const pattern0 = new RegExp("^[a-z0-9][a-z0-9-]{0,62}$", "u");
const func2 = require("ajv/dist/runtime/ucs2length").default;
const schema12 = {"type":"object","additionalProperties":false,"required":["match"],"properties":{"match":{"$ref":"#/definitions/match"},"error":{"description":"Shorthand for a built-in error response.","enum":["unauthorized","invalid-request","not-found","link-limit-reached"]},"respond":{"$ref":"#/definitions/respond"},"fault":{"description":"connection-reset: the socket is reset (RST); empty-response: the connection is closed without a byte; no-response: nothing is sent until the client gives up.","enum":["connection-reset","empty-response","no-response"]},"delay":{"$ref":"#/definitions/delay"},"times":{"description":"Apply to the first N matching requests only; later ones fall through to the next rules and the normal answer.","type":"integer","minimum":1}},"anyOf":[{"required":["error"]},{"required":["respond"]},{"required":["fault"]},{"required":["delay"]}],"not":{"anyOf":[{"required":["error","respond"]},{"required":["error","fault"]},{"required":["respond","fault"]}]}};
const schema13 = {"type":"object","additionalProperties":false,"required":["operation"],"properties":{"operation":{"description":"An operationId (createLink, updateLink, deleteLink), a list of them, or * for every operation.","oneOf":[{"type":"string","minLength":1},{"type":"array","minItems":1,"items":{"type":"string","minLength":1}}]},"headers":{"description":"Request headers that must have exactly these values (names are case-insensitive).","type":"object","additionalProperties":{"type":"string"}},"body":{"description":"Top-level request body fields that must have exactly these values.","type":"object"},"account":{"description":"The API key of the account the request is for.","type":"string","minLength":1}}};
const schema14 = {"type":"object","additionalProperties":false,"required":["status","body"],"properties":{"status":{"type":"integer","minimum":100,"maximum":599},"body":{"description":"The response body; checked against openapi.yaml at load.","type":"object"}}};
const schema15 = {"description":"Milliseconds before the answer: a number, or a range picked uniformly.","oneOf":[{"type":"integer","minimum":0,"maximum":600000},{"type":"object","additionalProperties":false,"required":["min","max"],"properties":{"min":{"type":"integer","minimum":0,"maximum":600000},"max":{"type":"integer","minimum":0,"maximum":600000}}}]};

function validate11(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
const _errs1 = errors;
const _errs2 = errors;
const _errs3 = errors;
let valid1 = false;
const _errs4 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.error === undefined) && (missing0 = "error")) || ((data.respond === undefined) && (missing0 = "respond"))){
const err0 = {};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var _valid0 = _errs4 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const _errs5 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
let missing1;
if(((data.error === undefined) && (missing1 = "error")) || ((data.fault === undefined) && (missing1 = "fault"))){
const err1 = {};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
var _valid0 = _errs5 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const _errs6 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
let missing2;
if(((data.respond === undefined) && (missing2 = "respond")) || ((data.fault === undefined) && (missing2 = "fault"))){
const err2 = {};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
var _valid0 = _errs6 === errors;
valid1 = valid1 || _valid0;
}
}
if(!valid1){
const err3 = {};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
errors = _errs3;
if(vErrors !== null){
if(_errs3){
vErrors.length = _errs3;
}
else {
vErrors = null;
}
}
}
var valid0 = _errs2 === errors;
if(valid0){
const err4 = {instancePath,schemaPath:"#/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
else {
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
}
const _errs7 = errors;
let valid2 = false;
const _errs8 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.error === undefined){
const err5 = {instancePath,schemaPath:"#/anyOf/0/required",keyword:"required",params:{missingProperty: "error"},message:"must have required property '"+"error"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
var _valid1 = _errs8 === errors;
valid2 = valid2 || _valid1;
if(!valid2){
const _errs9 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.respond === undefined){
const err6 = {instancePath,schemaPath:"#/anyOf/1/required",keyword:"required",params:{missingProperty: "respond"},message:"must have required property '"+"respond"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
var _valid1 = _errs9 === errors;
valid2 = valid2 || _valid1;
if(!valid2){
const _errs10 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.fault === undefined){
const err7 = {instancePath,schemaPath:"#/anyOf/2/required",keyword:"required",params:{missingProperty: "fault"},message:"must have required property '"+"fault"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
var _valid1 = _errs10 === errors;
valid2 = valid2 || _valid1;
if(!valid2){
const _errs11 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.delay === undefined){
const err8 = {instancePath,schemaPath:"#/anyOf/3/required",keyword:"required",params:{missingProperty: "delay"},message:"must have required property '"+"delay"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
var _valid1 = _errs11 === errors;
valid2 = valid2 || _valid1;
}
}
}
if(!valid2){
const err9 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
else {
errors = _errs7;
if(vErrors !== null){
if(_errs7){
vErrors.length = _errs7;
}
else {
vErrors = null;
}
}
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.match === undefined){
const err10 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "match"},message:"must have required property '"+"match"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "match") || (key0 === "error")) || (key0 === "respond")) || (key0 === "fault")) || (key0 === "delay")) || (key0 === "times"))){
const err11 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.match !== undefined){
let data0 = data.match;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.operation === undefined){
const err12 = {instancePath:instancePath+"/match",schemaPath:"#/definitions/match/required",keyword:"required",params:{missingProperty: "operation"},message:"must have required property '"+"operation"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
for(const key1 in data0){
if(!((((key1 === "operation") || (key1 === "headers")) || (key1 === "body")) || (key1 === "account"))){
const err13 = {instancePath:instancePath+"/match",schemaPath:"#/definitions/match/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data0.operation !== undefined){
let data1 = data0.operation;
const _errs18 = errors;
let valid6 = false;
let passing0 = null;
const _errs19 = errors;
if(typeof data1 === "string"){
if(func2(data1) < 1){
const err14 = {instancePath:instancePath+"/match/operation",schemaPath:"#/definitions/match/properties/operation/oneOf/0/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/match/operation",schemaPath:"#/definitions/match/properties/operation/oneOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid2 = _errs19 === errors;
if(_valid2){
valid6 = true;
passing0 = 0;
}
const _errs21 = errors;
if(Array.isArray(data1)){
if(data1.length < 1){
const err16 = {instancePath:instancePath+"/match/operation",schemaPath:"#/definitions/match/properties/operation/oneOf/1/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func2(data2) < 1){
const err17 = {instancePath:instancePath+"/match/operation/" + i0,schemaPath:"#/definitions/match/properties/operation/oneOf/1/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/match/operation/" + i0,schemaPath:"#/definitions/match/properties/operation/oneOf/1/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/match/operation",schemaPath:"#/definitions/match/properties/operation/oneOf/1/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
var _valid2 = _errs21 === errors;
if(_valid2 && valid6){
valid6 = false;
passing0 = [passing0, 1];
}
else {
if(_valid2){
valid6 = true;
passing0 = 1;
}
}
if(!valid6){
const err20 = {instancePath:instancePath+"/match/operation",schemaPath:"#/definitions/match/properties/operation/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
else {
errors = _errs18;
if(vErrors !== null){
if(_errs18){
vErrors.length = _errs18;
}
else {
vErrors = null;
}
}
}
}
if(data0.headers !== undefined){
let data3 = data0.headers;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key2 in data3){
if(typeof data3[key2] !== "string"){
const err21 = {instancePath:instancePath+"/match/headers/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/definitions/match/properties/headers/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/match/headers",schemaPath:"#/definitions/match/properties/headers/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data0.body !== undefined){
let data5 = data0.body;
if(!(data5 && typeof data5 == "object" && !Array.isArray(data5))){
const err23 = {instancePath:instancePath+"/match/body",schemaPath:"#/definitions/match/properties/body/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data0.account !== undefined){
let data6 = data0.account;
if(typeof data6 === "string"){
if(func2(data6) < 1){
const err24 = {instancePath:instancePath+"/match/account",schemaPath:"#/definitions/match/properties/account/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/match/account",schemaPath:"#/definitions/match/properties/account/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/match",schemaPath:"#/definitions/match/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.error !== undefined){
let data7 = data.error;
if(!((((data7 === "unauthorized") || (data7 === "invalid-request")) || (data7 === "not-found")) || (data7 === "link-limit-reached"))){
const err27 = {instancePath:instancePath+"/error",schemaPath:"#/properties/error/enum",keyword:"enum",params:{allowedValues: schema12.properties.error.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.respond !== undefined){
let data8 = data.respond;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.status === undefined){
const err28 = {instancePath:instancePath+"/respond",schemaPath:"#/definitions/respond/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
if(data8.body === undefined){
const err29 = {instancePath:instancePath+"/respond",schemaPath:"#/definitions/respond/required",keyword:"required",params:{missingProperty: "body"},message:"must have required property '"+"body"+"'"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
for(const key3 in data8){
if(!((key3 === "status") || (key3 === "body"))){
const err30 = {instancePath:instancePath+"/respond",schemaPath:"#/definitions/respond/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data8.status !== undefined){
let data9 = data8.status;
if(!((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9)))){
const err31 = {instancePath:instancePath+"/respond/status",schemaPath:"#/definitions/respond/properties/status/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(typeof data9 == "number"){
if(data9 > 599 || isNaN(data9)){
const err32 = {instancePath:instancePath+"/respond/status",schemaPath:"#/definitions/respond/properties/status/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
if(data9 < 100 || isNaN(data9)){
const err33 = {instancePath:instancePath+"/respond/status",schemaPath:"#/definitions/respond/properties/status/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
}
if(data8.body !== undefined){
let data10 = data8.body;
if(!(data10 && typeof data10 == "object" && !Array.isArray(data10))){
const err34 = {instancePath:instancePath+"/respond/body",schemaPath:"#/definitions/respond/properties/body/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
}
else {
const err35 = {instancePath:instancePath+"/respond",schemaPath:"#/definitions/respond/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data.fault !== undefined){
let data11 = data.fault;
if(!(((data11 === "connection-reset") || (data11 === "empty-response")) || (data11 === "no-response"))){
const err36 = {instancePath:instancePath+"/fault",schemaPath:"#/properties/fault/enum",keyword:"enum",params:{allowedValues: schema12.properties.fault.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data.delay !== undefined){
let data12 = data.delay;
const _errs46 = errors;
let valid13 = false;
let passing1 = null;
const _errs47 = errors;
if(!((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12)))){
const err37 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
if(typeof data12 == "number"){
if(data12 > 600000 || isNaN(data12)){
const err38 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/0/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
if(data12 < 0 || isNaN(data12)){
const err39 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
var _valid3 = _errs47 === errors;
if(_valid3){
valid13 = true;
passing1 = 0;
}
const _errs49 = errors;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.min === undefined){
const err40 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/1/required",keyword:"required",params:{missingProperty: "min"},message:"must have required property '"+"min"+"'"};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
if(data12.max === undefined){
const err41 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/1/required",keyword:"required",params:{missingProperty: "max"},message:"must have required property '"+"max"+"'"};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
for(const key4 in data12){
if(!((key4 === "min") || (key4 === "max"))){
const err42 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data12.min !== undefined){
let data13 = data12.min;
if(!((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13)))){
const err43 = {instancePath:instancePath+"/delay/min",schemaPath:"#/definitions/delay/oneOf/1/properties/min/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if(typeof data13 == "number"){
if(data13 > 600000 || isNaN(data13)){
const err44 = {instancePath:instancePath+"/delay/min",schemaPath:"#/definitions/delay/oneOf/1/properties/min/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
if(data13 < 0 || isNaN(data13)){
const err45 = {instancePath:instancePath+"/delay/min",schemaPath:"#/definitions/delay/oneOf/1/properties/min/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
}
if(data12.max !== undefined){
let data14 = data12.max;
if(!((typeof data14 == "number") && (!(data14 % 1) && !isNaN(data14)))){
const err46 = {instancePath:instancePath+"/delay/max",schemaPath:"#/definitions/delay/oneOf/1/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
if(typeof data14 == "number"){
if(data14 > 600000 || isNaN(data14)){
const err47 = {instancePath:instancePath+"/delay/max",schemaPath:"#/definitions/delay/oneOf/1/properties/max/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
if(data14 < 0 || isNaN(data14)){
const err48 = {instancePath:instancePath+"/delay/max",schemaPath:"#/definitions/delay/oneOf/1/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
}
}
else {
const err49 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
var _valid3 = _errs49 === errors;
if(_valid3 && valid13){
valid13 = false;
passing1 = [passing1, 1];
}
else {
if(_valid3){
valid13 = true;
passing1 = 1;
}
}
if(!valid13){
const err50 = {instancePath:instancePath+"/delay",schemaPath:"#/definitions/delay/oneOf",keyword:"oneOf",params:{passingSchemas: passing1},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
else {
errors = _errs46;
if(vErrors !== null){
if(_errs46){
vErrors.length = _errs46;
}
else {
vErrors = null;
}
}
}
}
if(data.times !== undefined){
let data15 = data.times;
if(!((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15)))){
const err51 = {instancePath:instancePath+"/times",schemaPath:"#/properties/times/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
if(typeof data15 == "number"){
if(data15 < 1 || isNaN(data15)){
const err52 = {instancePath:instancePath+"/times",schemaPath:"#/properties/times/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
}
}
else {
const err53 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
validate11.errors = vErrors;
return errors === 0;
}


function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://shortlink-mock.test/scenario.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.description === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "description"},message:"must have required property '"+"description"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.rules === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "rules"},message:"must have required property '"+"rules"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "$schema") || (key0 === "name")) || (key0 === "description")) || (key0 === "rules"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.$schema !== undefined){
if(typeof data.$schema !== "string"){
const err4 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.name !== undefined){
let data1 = data.name;
if(typeof data1 === "string"){
if(!pattern0.test(data1)){
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) < 1){
const err7 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.rules !== undefined){
let data3 = data.rules;
if(Array.isArray(data3)){
if(data3.length < 1){
const err9 = {instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
if(!(validate11(data3[i0], {instancePath:instancePath+"/rules/" + i0,parentData:data3,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? validate11.errors : vErrors.concat(validate11.errors);
errors = vErrors.length;
}
}
}
else {
const err10 = {instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
validate10.errors = vErrors;
return errors === 0;
}
